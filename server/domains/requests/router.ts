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
 * The firm sub-router `admin.requests`: `admin.requests.list`, `admin.requests.create`, `admin.requests.update`,
 * `admin.requests.updateItem`, `admin.requests.folders` and the templates (`admin.requests.templates`,
 * `admin.requests.createTemplate`, `admin.requests.updateTemplate`, `admin.requests.deleteTemplate`).
 */
export const requestsFirmRouter = router({
  list: staffProcedure("requests")
    .input(adminRequestListInput)
    .output(pageOutput(adminRequestOutput))
    .query(({ ctx, input }) => listRequestsForFirm(ctx, input)),
  create: staffProcedure("requests")
    .input(createRequestInput)
    .output(adminRequestOutput)
    .mutation(({ ctx, input }) => createRequest(ctx, input)),
  update: staffProcedure("requests")
    .input(updateRequestInput)
    .output(adminRequestOutput)
    .mutation(({ ctx, input }) => updateRequest(ctx, input)),
  updateItem: staffProcedure("requests")
    .input(updateRequestItemInput)
    .output(adminRequestOutput)
    .mutation(({ ctx, input }) => updateRequestItem(ctx, input)),
  templates: staffProcedure("requests")
    .output(requestTemplateOutput.array())
    .query(({ ctx }) => listTemplates(ctx)),
  createTemplate: staffProcedure("requests")
    .input(requestTemplateInput)
    .output(requestTemplateOutput)
    .mutation(({ ctx, input }) => createTemplate(ctx, input)),
  updateTemplate: staffProcedure("requests")
    .input(updateRequestTemplateInput)
    .output(requestTemplateOutput)
    .mutation(({ ctx, input }) => updateTemplate(ctx, input)),
  deleteTemplate: staffProcedure("requests")
    .input(idInput)
    .output(successOutput)
    .mutation(({ ctx, input }) => deleteTemplate(ctx, input)),
  folders: staffProcedure("requests")
    .input(requestFoldersInput)
    .output(requestFolderOutput.array())
    .query(({ ctx, input }) => requestFolders(ctx, input)),
});
