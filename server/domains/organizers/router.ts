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
 * Mounted as the firm sub-router `admin.organizers`. Organizers ask the client for what the return needs, as document
 * requests do: the `requests` right (docs/decisions.md, "Organizers").
 */
export const organizersFirmRouter = router({
  templates: staffProcedure("requests")
    .output(templateOutput.array())
    .query(({ ctx }) => listTemplates(ctx)),
  readyTemplates: staffProcedure("requests")
    .output(readyTemplateOutput.array())
    .query(() => readyTemplates()),
  template: staffProcedure("requests")
    .input(idInput)
    .output(templateOutput)
    .query(({ ctx, input }) => getTemplate(ctx, input)),
  createTemplate: staffProcedure("requests")
    .input(templateInput)
    .output(templateOutput)
    .mutation(({ ctx, input }) => createTemplate(ctx, input)),
  updateTemplate: staffProcedure("requests")
    .input(updateTemplateInput)
    .output(templateOutput)
    .mutation(({ ctx, input }) => updateTemplate(ctx, input)),
  deleteTemplate: staffProcedure("requests")
    .input(idInput)
    .output(successOutput)
    .mutation(({ ctx, input }) => deleteTemplate(ctx, input)),
  list: staffProcedure("requests")
    .input(adminOrganizerListInput)
    .output(pageOutput(adminOrganizerListItem))
    .query(({ ctx, input }) => listOrganizers(ctx, input)),
  get: staffProcedure("requests")
    .input(idInput)
    .output(adminOrganizerOutput)
    .query(({ ctx, input }) => getOrganizerForFirm(ctx, input)),
  create: staffProcedure("requests")
    .input(createOrganizerInput)
    .output(createOrganizerOutput)
    .mutation(async ({ ctx, input }) => {
      const created = await createOrganizers(ctx, input);
      return input.account_ids ? { organizers: created } : (created[0] as (typeof created)[number]);
    }),
  send: staffProcedure("requests")
    .input(idInput)
    .output(adminOrganizerOutput)
    .mutation(({ ctx, input }) => sendOrganizer(ctx, input)),
  reviewAnswer: staffProcedure("requests")
    .input(reviewedInput)
    .output(adminOrganizerOutput)
    .mutation(({ ctx, input }) => markReviewed(ctx, input)),
  reopen: staffProcedure("requests")
    .input(reopenInput)
    .output(adminOrganizerOutput)
    .mutation(({ ctx, input }) => reopenOrganizer(ctx, input)),
});

/** The firm's downloads (REST only, not served at /trpc): the PDF reads `admin.organizers.get`; the CSV this table. */
export const organizersExportRouter = router({
  answersTable: staffProcedure("requests")
    .input(idInput)
    .query(({ ctx, input }) => answersTable(ctx, input)),
});
