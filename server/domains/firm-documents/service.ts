// The admin's page of one client (Users tab -> the client): their folders and documents, and
// uploads into them, which are the client's documents shared by the firm (uploaded_by: the admin).
// The upload is the client's own upload code (documents/upload.ts) with the client as owner.
import { TRPCError } from "@trpc/server";
import type { AuthedContext, Context } from "../../trpc/context.ts";
import { recordSettingChange } from "../activity/record.ts";
import type { AdminUser } from "../admin/schemas.ts";
import { USER_NOT_FOUND } from "../admin/service.ts";
import { findUserById } from "../auth/queries.ts";
import { listDocuments, storageOfUsers } from "../documents/queries.ts";
import type { DocumentItem } from "../documents/schemas.ts";
import { createDocumentForFirm, prepareUploadForFirm, quotaBytes, type ReceivedFile } from "../documents/upload.ts";
import { documentNamesInEmails, setDocumentNamesInEmails } from "../documents/upload-notices.ts";
import { listFolders } from "../folders/queries.ts";
import type { Folder } from "../folders/schemas.ts";
import { assertOwnFolder } from "../folders/service.ts";
import type { NotificationSettings } from "./schemas.ts";

/** A client account (an admin's id answers as a missing one: the firm shares documents with clients only). */
async function findClient(ctx: Pick<Context, "db">, id: string) {
  const user = await findUserById(ctx.db, id);
  if (!user || user.is_admin) throw new TRPCError({ code: "NOT_FOUND", message: USER_NOT_FOUND });
  return user;
}

export async function clientProfile(ctx: Context, input: { id: string }): Promise<AdminUser> {
  const user = await findClient(ctx, input.id);
  const [storage] = await storageOfUsers(ctx.db, [user.id]);
  const quotaMb = storage?.storage_quota_mb ?? null;
  return { ...user, used_bytes: storage?.used_bytes ?? 0, quota_bytes: quotaBytes(ctx.config, quotaMb), quota_mb: quotaMb };
}

export async function clientFolders(ctx: Context, input: { id: string }): Promise<Folder[]> {
  await findClient(ctx, input.id);
  return listFolders(ctx.db, input.id);
}

export async function clientDocuments(ctx: Context, input: { id: string; folder_id: string | null }): Promise<DocumentItem[]> {
  await findClient(ctx, input.id);
  if (input.folder_id) await assertOwnFolder(ctx.db, input.id, input.folder_id);
  return listDocuments(ctx.db, input.id, input.folder_id);
}

/** Before the body of the firm's upload is read: the client exists, the admin's hourly limit, what fits in the client's quota. */
export async function prepareClientUpload(ctx: AuthedContext, input: { id: string }): Promise<{ remainingBytes: number }> {
  await findClient(ctx, input.id);
  return prepareUploadForFirm(ctx, input.id);
}

/** Records the firm's stored upload as the client's document, in one of the client's folders (or their root). */
export async function recordClientUpload(
  ctx: AuthedContext,
  input: { id: string; folder_id: string | null; file: ReceivedFile },
): Promise<DocumentItem> {
  try {
    return await createDocumentForFirm(ctx, { folder_id: input.folder_id, file: input.file }, input.id);
  } catch (err) {
    // The client was deleted while the file arrived: that is their absence, not the admin's session.
    if (err instanceof TRPCError && err.code === "UNAUTHORIZED") throw new TRPCError({ code: "NOT_FOUND", message: USER_NOT_FOUND });
    throw err;
  }
}

export async function notificationSettings(ctx: Pick<Context, "db">): Promise<NotificationSettings> {
  return { include_document_names_in_emails: await documentNamesInEmails(ctx.db) };
}

export async function updateNotificationSettings(ctx: AuthedContext, input: NotificationSettings): Promise<NotificationSettings> {
  await ctx.db.transaction().execute(async (tx) => {
    await setDocumentNamesInEmails(tx, input.include_document_names_in_emails, ctx.now());
    await recordSettingChange(tx, ctx, "include_document_names_in_emails", input.include_document_names_in_emails);
  });
  ctx.logger.info({ includeDocumentNames: input.include_document_names_in_emails }, "firm notification settings changed");
  return notificationSettings(ctx);
}
