import { z } from "zod";
import { documentOutput, storageUsageOutput } from "../routers/documents/schemas.ts";
import { idSchema, successOutput } from "../routers/shared-schemas.ts";
import { downloadRoute } from "./download.ts";
import type { RestRoute } from "./route.ts";
import { uploadRoute } from "./upload.ts";

const uploadForm = z.object({ file: z.string().meta({ format: "binary" }), folder_id: idSchema.optional() });
export const downloadReply = { description: "The file, as an attachment", contentType: "application/octet-stream" };

export const documentRoutes: RestRoute[] = [
  {
    method: "get",
    path: "/documents/root",
    summary: "Documents in the root",
    tag: "documents",
    access: "client",
    response: z.array(documentOutput),
    call: (c) => c.documents.root(),
  },
  {
    method: "get",
    path: "/documents/usage",
    summary: "Bytes the caller's documents take, and the caller's quota",
    tag: "documents",
    access: "client",
    response: storageUsageOutput,
    call: (c) => c.documents.usage(),
  },
  {
    method: "get",
    path: "/documents/folder/:folder_id",
    summary: "Documents in a folder",
    tag: "documents",
    access: "client",
    response: z.array(documentOutput),
    call: (c, r) => c.documents.inFolder({ folder_id: r.params.folder_id! }),
  },
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
    method: "delete",
    path: "/documents/:id",
    summary: "Delete a document",
    tag: "documents",
    access: "client",
    response: successOutput,
    call: (c, r) => c.documents.delete({ id: r.params.id! }),
  },
];
