// Document requests over REST: the client's own list and submit, and the firm's create, list and
// status change. Uploading against a request is the ordinary upload with a `request_id` field.
import { z } from "zod";
import {
  adminRequestListInput,
  adminRequestOutput,
  clientRequestOutput,
  createRequestInput,
  updateRequestBody,
} from "../domains/requests/schemas.ts";
import { bodyOf, procedureRoute, type RestRoute } from "./route.ts";

export const requestRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/requests",
    summary: "The caller's document requests, open ones first (soonest due first), each with the documents attached to it",
    tag: "requests",
    access: "client",
    response: z.array(clientRequestOutput),
    call: (c) => c.requests.list(),
  }),
  procedureRoute({
    method: "post",
    path: "/requests/:id/submit",
    summary: "Mark one of the caller's open requests submitted (422 until a document is attached; 409 once submitted or done); the firm is mailed",
    tag: "requests",
    access: "client",
    response: clientRequestOutput,
    call: (c, r) => c.requests.submit({ id: r.params.id }),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/requests",
    summary: "Every client's document requests, newest first, by client (user_id), status and search text (q), with the number of documents attached",
    tag: "admin",
    access: "admin",
    query: adminRequestListInput.extend({ offset: z.coerce.number().int().min(0).optional() }),
    paged: true,
    response: z.array(adminRequestOutput),
    call: (c, r) => {
      const { q, user_id, status, limit, cursor, offset } = r.query;
      return c.admin.requests({ q, user_id, status, limit, cursor: cursor ?? offset });
    },
  }),
  procedureRoute({
    method: "post",
    path: "/admin/requests",
    summary: "Ask a client for documents (folder_id: one of that client's folders); the client is mailed",
    tag: "admin",
    access: "admin",
    body: createRequestInput,
    response: adminRequestOutput,
    status: 201,
    call: (c, r) => c.admin.createRequest(r.body),
  }),
  procedureRoute({
    method: "patch",
    path: "/admin/requests/:id",
    summary: "Mark a request done, reopen it or set it submitted, with an optional comment for the client",
    tag: "admin",
    access: "admin",
    body: updateRequestBody,
    response: adminRequestOutput,
    call: (c, r) => c.admin.updateRequest({ ...bodyOf(r), id: r.params.id }),
  }),
];
