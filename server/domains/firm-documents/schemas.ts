import { z } from "zod";
import { createFolderInput } from "../folders/schemas.ts";
import { idSchema } from "../shared-schemas.ts";

/** One folder of a client's documents (null: their root). */
export const clientDocumentsInput = z.object({ id: idSchema, folder_id: idSchema.nullable().default(null) });
/** GET /api/admin/users/:id/documents: `?folder_id=`, the root without it. */
export const clientDocumentsQuery = z.object({ folder_id: idSchema.optional() });

/** A folder the firm makes in a client's tree from their record (POST /api/admin/users/:id/folders). */
export const createClientFolderInput = createFolderInput.extend({ id: idSchema });

export const notificationSettingsOutput = z.object({
  /** Whether the emails about uploads (the client's "documents waiting", the firm's digest) name the documents and their folders. */
  include_document_names_in_emails: z.boolean(),
});
export const updateNotificationSettingsInput = z.object({
  include_document_names_in_emails: z.boolean({ error: "include_document_names_in_emails must be true or false" }),
});
export type NotificationSettings = z.infer<typeof notificationSettingsOutput>;
