import { router } from "../../trpc/init.ts";
import { clientProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { pageOutput } from "../admin/schemas.ts";
import { idInput, successOutput } from "../shared-schemas.ts";
import { removeItemDocument, updateRequestItem } from "./checklists.ts";
import {
  adminRequestListInput,
  adminRequestOutput,
  clientRequestOutput,
  createRequestInput,
  removeItemDocumentInput,
  removedItemDocumentOutput,
  requestFolderOutput,
  requestFoldersInput,
  requestTemplateInput,
  requestTemplateOutput,
  updateRequestInput,
  updateRequestItemInput,
  updateRequestTemplateInput,
} from "./schemas.ts";
import { createRequest, listOwnRequests, listRequestsForFirm, requestFolders, submitOwnRequest, updateRequest } from "./service.ts";
import { createTemplate, deleteTemplate, listTemplates, updateTemplate } from "./templates.ts";

export const requestsRouter = router({
  list: clientProcedure.output(clientRequestOutput.array()).query(({ ctx }) => listOwnRequests(ctx)),
  submit: clientProcedure
    .input(idInput)
    .output(clientRequestOutput)
    .mutation(({ ctx, input }) => submitOwnRequest(ctx, input)),
  removeItemDocument: clientProcedure
    .input(removeItemDocumentInput)
    .output(removedItemDocumentOutput)
    .mutation(({ ctx, input }) => removeItemDocument(ctx, input)),
});

/**
 * Spread into the admin router: `admin.requests`, `admin.createRequest`, `admin.updateRequest`,
 * `admin.updateRequestItem`, `admin.requestFolders` and the templates (`admin.requestTemplates`,
 * `admin.createRequestTemplate`, `admin.updateRequestTemplate`, `admin.deleteRequestTemplate`).
 */
export const requestsAdminProcedures = {
  requests: staffProcedure("requests")
    .input(adminRequestListInput)
    .output(pageOutput(adminRequestOutput))
    .query(({ ctx, input }) => listRequestsForFirm(ctx, input)),
  createRequest: staffProcedure("requests")
    .input(createRequestInput)
    .output(adminRequestOutput)
    .mutation(({ ctx, input }) => createRequest(ctx, input)),
  updateRequest: staffProcedure("requests")
    .input(updateRequestInput)
    .output(adminRequestOutput)
    .mutation(({ ctx, input }) => updateRequest(ctx, input)),
  updateRequestItem: staffProcedure("requests")
    .input(updateRequestItemInput)
    .output(adminRequestOutput)
    .mutation(({ ctx, input }) => updateRequestItem(ctx, input)),
  requestTemplates: staffProcedure("requests")
    .output(requestTemplateOutput.array())
    .query(({ ctx }) => listTemplates(ctx)),
  createRequestTemplate: staffProcedure("requests")
    .input(requestTemplateInput)
    .output(requestTemplateOutput)
    .mutation(({ ctx, input }) => createTemplate(ctx, input)),
  updateRequestTemplate: staffProcedure("requests")
    .input(updateRequestTemplateInput)
    .output(requestTemplateOutput)
    .mutation(({ ctx, input }) => updateTemplate(ctx, input)),
  deleteRequestTemplate: staffProcedure("requests")
    .input(idInput)
    .output(successOutput)
    .mutation(({ ctx, input }) => deleteTemplate(ctx, input)),
  requestFolders: staffProcedure("requests")
    .input(requestFoldersInput)
    .output(requestFolderOutput.array())
    .query(({ ctx, input }) => requestFolders(ctx, input)),
};
