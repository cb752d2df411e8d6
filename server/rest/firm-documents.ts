import { z } from "zod";
import { adminUserOutput } from "../domains/admin/schemas.ts";
import { documentOutput } from "../domains/documents/schemas.ts";
import { clientDocumentsQuery, notificationSettingsOutput, updateNotificationSettingsInput } from "../domains/firm-documents/schemas.ts";
import { createFolderInput, folderOutput } from "../domains/folders/schemas.ts";
import { idSchema } from "../domains/shared-schemas.ts";
import { bodyOf, procedureRoute, type RestRoute } from "./route.ts";
import { type UploadTarget, uploadRoute } from "./upload.ts";

const clientUploadForm = z.object({
  file: z.string().meta({ format: "binary" }),
  folder_id: idSchema.optional(),
  for_signature: z
    .enum(["true", "false"])
    .optional()
    .meta({ description: "true: a PDF for a signature request being prepared, kept from the client until it is sent" }),
});

/** The firm's upload goes into the documents of the client the path names. */
const clientDocuments: UploadTarget = (transfers, params) => ({
  prepareUpload: () => transfers.admin.clients.prepareUpload({ id: params.id! }),
  checkUploadPlace: ({ folder_id }) => transfers.admin.clients.checkUploadPlace({ id: params.id!, folder_id }),
  recordUpload: ({ folder_id, for_signature, file }) => transfers.admin.clients.recordUpload({ id: params.id!, folder_id, for_signature, file }),
});

export const firmDocumentRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/admin/users/:id",
    summary: "One client, with their storage (404 for an admin account)",
    tag: "admin",
    access: "admin",
    response: adminUserOutput,
    call: (c, r) => c.admin.clients.get({ id: r.params.id }),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/users/:id/folders",
    summary: "A client account's folders (:id an account's id, or a person's id for their one account)",
    tag: "admin",
    access: "admin",
    response: z.array(folderOutput),
    call: (c, r) => c.admin.clients.folders({ id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/users/:id/folders",
    summary: "Make a folder in a client's tree (`:id` a client person's or an account's id; 409 for a name its siblings have)",
    tag: "admin",
    access: "admin",
    body: createFolderInput,
    response: folderOutput,
    status: 201,
    call: (c, r) => c.admin.clients.createFolder({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/users/:id/documents",
    summary:
      "A client account's documents in one of its folders (folder_id), or in its root (:id an account's id, or a person's id for their one account)",
    tag: "admin",
    access: "admin",
    query: clientDocumentsQuery,
    response: z.array(documentOutput),
    call: (c, r) => c.admin.clients.documents({ id: r.params.id, folder_id: r.query.folder_id ?? null }),
  }),
  {
    method: "post",
    path: "/admin/users/:id/documents",
    summary:
      "Share a file with a client account (:id an account's id, or a person's id for their one account): upload it into one of its folders (folder_id) or its root, as its document from the firm (at most 10MB, within the account's storage quota: 413 \"Storage quota exceeded\")",
    tag: "admin",
    access: "admin",
    body: { multipart: clientUploadForm },
    response: documentOutput,
    status: 201,
    handler: (deps) => uploadRoute(deps, clientDocuments),
  },
  procedureRoute({
    method: "get",
    path: "/admin/notification-settings",
    summary: "The firm's email settings (whether emails about uploads name the documents)",
    tag: "admin",
    access: "admin",
    response: notificationSettingsOutput,
    call: (c) => c.admin.clients.notificationSettings(),
  }),
  procedureRoute({
    method: "put",
    path: "/admin/notification-settings",
    summary: "Name the documents and their folders in the emails about uploads, or not",
    tag: "admin",
    access: "admin",
    body: updateNotificationSettingsInput,
    response: notificationSettingsOutput,
    call: (c, r) => c.admin.clients.updateNotificationSettings(r.body),
  }),
];
