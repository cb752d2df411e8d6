// Document requests over REST: the client's own list and submit, and the firm's create, list and
// status change. Uploading against a request is the ordinary upload with a `request_id` field (and
// `request_item_id` for an item of its checklist). Checklists and templates: issue 34.
import { z } from "zod";
import {
  adminRequestListInput,
  adminRequestOutput,
  clientRequestOutput,
  removedItemDocumentOutput,
  createRequestInput,
  requestTemplateChanges,
  requestTemplateInput,
  requestTemplateOutput,
  updateRequestBody,
  updateRequestItemBody,
} from "../domains/requests/schemas.ts";
import { successOutput } from "../domains/shared-schemas.ts";
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
    method: "delete",
    path: "/requests/:id/items/:itemId/documents/:documentId",
    summary:
      "Take a document the caller attached to an item of their request off it (a wrong file): it goes to their trash, unless it also answers an organizer's question (then it only leaves the item). 409 once the firm has marked the item or the request done",
    tag: "requests",
    access: "client",
    response: removedItemDocumentOutput,
    call: (c, r) => c.requests.removeItemDocument({ request_id: r.params.id, item_id: r.params.itemId, document_id: r.params.documentId }),
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
      return c.admin.requests.list({ q, user_id, status, limit, cursor: cursor ?? offset });
    },
  }),
  procedureRoute({
    method: "post",
    path: "/admin/requests",
    summary:
      "Ask a client for documents (folder_id: one of that client's folders; items: the checklist, [{ title }]; template_id: a template giving what the body leaves out); the client is mailed",
    tag: "admin",
    access: "admin",
    body: createRequestInput,
    response: adminRequestOutput,
    status: 201,
    call: (c, r) => c.admin.requests.create(r.body),
  }),
  procedureRoute({
    method: "patch",
    path: "/admin/requests/:id",
    summary: "Mark a request done, reopen it or set it submitted, with an optional comment for the client",
    tag: "admin",
    access: "admin",
    body: updateRequestBody,
    response: adminRequestOutput,
    call: (c, r) => c.admin.requests.update({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "patch",
    path: "/admin/requests/:id/items/:itemId",
    summary: "Mark an item of a request's checklist done or reopen it (the client is mailed; a done request is reopened with it)",
    tag: "admin",
    access: "admin",
    body: updateRequestItemBody,
    response: adminRequestOutput,
    call: (c, r) => c.admin.requests.updateItem({ ...bodyOf(r), request_id: r.params.id, item_id: r.params.itemId }),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/request-templates",
    summary: "The firm's request templates (title, description, items), by title",
    tag: "admin",
    access: "admin",
    response: z.array(requestTemplateOutput),
    call: (c) => c.admin.requests.templates(),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/request-templates",
    summary: "Keep a request to reuse each season: title, description and items ([{ title }])",
    tag: "admin",
    access: "admin",
    body: requestTemplateInput,
    response: requestTemplateOutput,
    status: 201,
    call: (c, r) => c.admin.requests.createTemplate(r.body),
  }),
  procedureRoute({
    method: "patch",
    path: "/admin/request-templates/:id",
    summary: "Change a template's title, description or items (requests already made from it keep theirs)",
    tag: "admin",
    access: "admin",
    body: requestTemplateChanges,
    response: requestTemplateOutput,
    call: (c, r) => c.admin.requests.updateTemplate({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "delete",
    path: "/admin/request-templates/:id",
    summary: "Delete a template (requests made from it keep their checklists)",
    tag: "admin",
    access: "admin",
    response: successOutput,
    call: (c, r) => c.admin.requests.deleteTemplate({ id: r.params.id }),
  }),
];
