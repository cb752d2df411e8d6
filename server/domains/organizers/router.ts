import { router } from "../../trpc/init.ts";
import { clientProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { pageOutput } from "../admin/schemas.ts";
import { idInput, successOutput } from "../shared-schemas.ts";
import {
  adminOrganizerListInput,
  adminOrganizerListItem,
  adminOrganizerOutput,
  answersInput,
  clientOrganizerListItem,
  clientOrganizerOutput,
  createOrganizerInput,
  createOrganizerOutput,
  readyTemplateOutput,
  reopenInput,
  reviewedInput,
  templateInput,
  templateOutput,
  updateTemplateInput,
} from "./schemas.ts";
import { answersTable } from "./exports.ts";
import {
  createOrganizers,
  createTemplate,
  deleteTemplate,
  getOrganizerForFirm,
  getTemplate,
  listOrganizers,
  listTemplates,
  markReviewed,
  readyTemplates,
  reopenOrganizer,
  sendOrganizer,
  updateTemplate,
} from "./firm-service.ts";
import { getOwn, listOwn, saveAnswers, submitOrganizer, unsubmitOrganizer } from "./service.ts";

export const organizersRouter = router({
  list: clientProcedure.output(clientOrganizerListItem.array()).query(({ ctx }) => listOwn(ctx)),
  get: clientProcedure
    .input(idInput)
    .output(clientOrganizerOutput)
    .query(({ ctx, input }) => getOwn(ctx, input)),
  saveAnswers: clientProcedure
    .input(answersInput)
    .output(clientOrganizerOutput)
    .mutation(({ ctx, input }) => saveAnswers(ctx, input)),
  submit: clientProcedure
    .input(idInput)
    .output(clientOrganizerOutput)
    .mutation(({ ctx, input }) => submitOrganizer(ctx, input)),
  unsubmit: clientProcedure
    .input(idInput)
    .output(clientOrganizerOutput)
    .mutation(({ ctx, input }) => unsubmitOrganizer(ctx, input)),
});

/**
 * Spread into the admin router. Organizers ask the client for what the return needs, as document
 * requests do: the `requests` right (docs/decisions.md, "Organizers").
 */
export const organizersAdminProcedures = {
  organizerTemplates: staffProcedure("requests")
    .output(templateOutput.array())
    .query(({ ctx }) => listTemplates(ctx)),
  readyOrganizerTemplates: staffProcedure("requests")
    .output(readyTemplateOutput.array())
    .query(() => readyTemplates()),
  organizerTemplate: staffProcedure("requests")
    .input(idInput)
    .output(templateOutput)
    .query(({ ctx, input }) => getTemplate(ctx, input)),
  createOrganizerTemplate: staffProcedure("requests")
    .input(templateInput)
    .output(templateOutput)
    .mutation(({ ctx, input }) => createTemplate(ctx, input)),
  updateOrganizerTemplate: staffProcedure("requests")
    .input(updateTemplateInput)
    .output(templateOutput)
    .mutation(({ ctx, input }) => updateTemplate(ctx, input)),
  deleteOrganizerTemplate: staffProcedure("requests")
    .input(idInput)
    .output(successOutput)
    .mutation(({ ctx, input }) => deleteTemplate(ctx, input)),
  organizers: staffProcedure("requests")
    .input(adminOrganizerListInput)
    .output(pageOutput(adminOrganizerListItem))
    .query(({ ctx, input }) => listOrganizers(ctx, input)),
  organizer: staffProcedure("requests")
    .input(idInput)
    .output(adminOrganizerOutput)
    .query(({ ctx, input }) => getOrganizerForFirm(ctx, input)),
  createOrganizer: staffProcedure("requests")
    .input(createOrganizerInput)
    .output(createOrganizerOutput)
    .mutation(async ({ ctx, input }) => {
      const created = await createOrganizers(ctx, input);
      return input.account_ids ? { organizers: created } : (created[0] as (typeof created)[number]);
    }),
  sendOrganizer: staffProcedure("requests")
    .input(idInput)
    .output(adminOrganizerOutput)
    .mutation(({ ctx, input }) => sendOrganizer(ctx, input)),
  reviewOrganizerAnswer: staffProcedure("requests")
    .input(reviewedInput)
    .output(adminOrganizerOutput)
    .mutation(({ ctx, input }) => markReviewed(ctx, input)),
  reopenOrganizer: staffProcedure("requests")
    .input(reopenInput)
    .output(adminOrganizerOutput)
    .mutation(({ ctx, input }) => reopenOrganizer(ctx, input)),
};

/** The firm's downloads (REST only, not served at /trpc): the PDF reads `admin.organizer`; the CSV this table. */
export const organizersExportRouter = router({
  answersTable: staffProcedure("requests")
    .input(idInput)
    .query(({ ctx, input }) => answersTable(ctx, input)),
});
