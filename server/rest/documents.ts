import { z } from "zod";
import {
  documentOutput,
  documentSearchInput,
  documentSearchResultOutput,
  storageUsageOutput,
  trashedDocumentOutput,
  updateDocumentBody,
} from "../domains/documents/schemas.ts";
import { idSchema, successOutput } from "../domains/shared-schemas.ts";
import { downloadRoute, previewRoute } from "./download.ts";
import { bodyOf, procedureRoute, type RestRoute } from "./route.ts";
import { uploadRoute } from "./upload.ts";

const uploadForm = z.object({
  file: z.string().meta({ format: "binary" }),
  folder_id: idSchema.optional(),
  /** One of the caller's open document requests: attaches the document, and puts it in the request's folder when it has one. */
  request_id: idSchema.optional(),
});
export const downloadReply = { description: "The file, as an attachment", contentType: "application/octet-stream" };
export const previewReply = {
  description:
    "The file shown in the browser (inline, its stored type, a sandbox CSP): PNG, JPEG, GIF, WebP, PDF and plain text; 415 for any other type",
};

export const documentRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/documents/root",
    summary: "Documents in the root",
    tag: "documents",
    access: "client",
    response: z.array(documentOutput),
    call: (c) => c.documents.root(),
  }),
  procedureRoute({
    method: "get",
    path: "/documents/search",
    summary: "The caller's documents whose name contains q (all of them without q), across all folders, each with its folder path",
    tag: "documents",
    access: "client",
    query: documentSearchInput,
    response: z.array(documentSearchResultOutput),
    call: (c, r) => c.documents.search(r.query),
  }),
  procedureRoute({
    method: "get",
    path: "/documents/usage",
    summary: "Bytes the caller's documents take, and the caller's quota",
    tag: "documents",
    access: "client",
    response: storageUsageOutput,
    call: (c) => c.documents.usage(),
  }),
  procedureRoute({
    method: "get",
    path: "/documents/folder/:folder_id",
    summary: "Documents in a folder",
    tag: "documents",
    access: "client",
    response: z.array(documentOutput),
    call: (c, r) => c.documents.inFolder({ folder_id: r.params.folder_id }),
  }),
  {
    method: "post",
    path: "/documents/upload",
    summary: 'Upload one file (at most 10MB, within the storage quota: 413 "Storage quota exceeded"; at most 200 an hour: 429)',
    tag: "documents",
    access: "client",
    body: { multipart: uploadForm },
    response: documentOutput,
    status: 201,
    handler: uploadRoute,
  },
  {
    method: "get",
    path: "/documents/:id/download",
    summary: "Download one of the caller's documents",
    tag: "documents",
    access: "client",
    response: downloadReply,
    handler: downloadRoute((transfers, id) => transfers.documents.download({ id })),
  },
  {
    method: "get",
    path: "/documents/:id/preview",
    summary: "Show one of the caller's documents in the browser",
    tag: "documents",
    access: "client",
    response: previewReply,
    handler: previewRoute((transfers, id) => transfers.documents.preview({ id })),
  },
  procedureRoute({
    method: "patch",
    path: "/documents/:id",
    summary: 'Rename a document and/or move it to another folder (folder_id null: the root); 404 "Folder not found" for a folder not the caller\'s',
    tag: "documents",
    access: "client",
    body: updateDocumentBody,
    response: documentOutput,
    call: (c, r) => c.documents.update({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "delete",
    path: "/documents/:id",
    summary: "Move a document to the trash (deleted for good 30 days later)",
    tag: "documents",
    access: "client",
    response: successOutput,
    call: (c, r) => c.documents.delete({ id: r.params.id }),
  }),
  procedureRoute({
    method: "get",
    path: "/trash",
    summary: "The caller's trashed documents, most recently deleted first, with when each is deleted for good",
    tag: "documents",
    access: "client",
    response: z.array(trashedDocumentOutput),
    call: (c) => c.documents.trash(),
  }),
  procedureRoute({
    method: "post",
    path: "/trash/:id/restore",
    summary: "Restore a trashed document to its folder (the root if that folder is gone)",
    tag: "documents",
    access: "client",
    response: documentOutput,
    call: (c, r) => c.documents.restore({ id: r.params.id }),
  }),
  procedureRoute({
    method: "delete",
    path: "/trash/:id",
    summary: "Delete a trashed document for good (its row and its file)",
    tag: "documents",
    access: "client",
    response: successOutput,
    call: (c, r) => c.documents.deleteForever({ id: r.params.id }),
  }),
];
