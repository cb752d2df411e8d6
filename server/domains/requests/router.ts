import { router } from "../../trpc/init.ts";
import { clientProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { pageOutput } from "../admin/schemas.ts";
import { idInput } from "../shared-schemas.ts";
import {
  adminRequestListInput,
  adminRequestOutput,
  clientRequestOutput,
  createRequestInput,
  requestFolderOutput,
  requestFoldersInput,
  updateRequestInput,
} from "./schemas.ts";
import { createRequest, listOwnRequests, listRequestsForFirm, requestFolders, submitOwnRequest, updateRequest } from "./service.ts";

export const requestsRouter = router({
  list: clientProcedure.output(clientRequestOutput.array()).query(({ ctx }) => listOwnRequests(ctx)),
  submit: clientProcedure
    .input(idInput)
    .output(clientRequestOutput)
    .mutation(({ ctx, input }) => submitOwnRequest(ctx, input)),
});

/** Spread into the admin router: `admin.requests`, `admin.createRequest`, `admin.updateRequest`, `admin.requestFolders`. */
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
  requestFolders: staffProcedure("requests")
    .input(requestFoldersInput)
    .output(requestFolderOutput.array())
    .query(({ ctx, input }) => requestFolders(ctx, input)),
};
