// The admin's page of one client (Users tab -> the client): their folders and documents, and
// uploads into them, which are the client's documents shared by the firm (uploaded_by: the admin).
// The upload is the client's own upload code (documents/upload.ts) with the client as owner.
import { TRPCError } from "@trpc/server";
import type { AuthedContext, Context, FirmContext } from "../../trpc/context.ts";
import { recordSettingChange } from "../activity/record.ts";
import type { AdminUser } from "../admin/schemas.ts";
import type { PublicUser } from "../auth/schemas.ts";
import { USER_NOT_FOUND } from "../admin/service.ts";
import { findUserById } from "../auth/queries.ts";
import { accountForFirm } from "../accounts/service.ts";
import { findStorageQuota, listDocumentsForFirm, storedBytes } from "../documents/queries.ts";
import type { DocumentItem } from "../documents/schemas.ts";
import { checkUploadPlaceForFirm, createDocumentForFirm, prepareUploadForFirm, quotaBytes, type ReceivedFile } from "../documents/upload.ts";
import { documentNamesInEmails, setDocumentNamesInEmails } from "../documents/upload-notices.ts";
import { listFolders } from "../folders/queries.ts";
import type { CreateFolderInput, Folder } from "../folders/schemas.ts";
import { assertOwnFolder, createFolderIn } from "../folders/service.ts";
import { findAccountForFirm } from "../accounts/firm-queries.ts";
import type { NotificationSettings } from "./schemas.ts";

/**
 * The account a client person's id means on these paths (docs/decisions.md, "Client accounts (issue
 * 32)"): their only account, or the one they own; an admin's id answers as a missing one (the firm
 * shares documents with clients only), as does a person in no account; several: 409.
 */
async function findClient(ctx: Pick<FirmContext, "db" | "firmScope">, id: string): Promise<{ user: PublicUser; accountId: string }> {
  const user = await findUserById(ctx.db, id);
  if (!user || user.is_admin) throw new TRPCError({ code: "NOT_FOUND", message: USER_NOT_FOUND });
  return { user, accountId: await accountForFirm(ctx.db, ctx.firmScope, { user_id: id }, USER_NOT_FOUND) };
}

/** The account of the paths that need no person: a person's id as above, or an account's own id (one nobody has joined yet). */
function findClientAccount(ctx: Pick<FirmContext, "db" | "firmScope">, id: string): Promise<string> {
  return accountForFirm(ctx.db, ctx.firmScope, { user_id: id }, USER_NOT_FOUND);
}

export async function clientProfile(ctx: FirmContext, input: { id: string }): Promise<AdminUser> {
  const { user, accountId } = await findClient(ctx, input.id);
  const [quota, used] = await Promise.all([findStorageQuota(ctx.db, accountId), storedBytes(ctx.db, accountId)]);
  const quotaMb = quota?.storage_quota_mb ?? null;
  return { ...user, used_bytes: used, quota_bytes: quotaBytes(ctx.config, quotaMb), quota_mb: quotaMb };
}

export async function clientFolders(ctx: FirmContext, input: { id: string }): Promise<Folder[]> {
  const accountId = await findClientAccount(ctx, input.id);
  return listFolders(ctx.db, accountId, null);
}

/** A folder in the client's tree, made by the firm (a place for what it will share, or for the client's uploads). */
export async function createClientFolder(ctx: FirmContext, input: { id: string } & CreateFolderInput): Promise<Folder> {
  const accountId = await findClientAccount(ctx, input.id);
  const account = await findAccountForFirm(ctx.db, ctx.firmScope, accountId);
  if (!account) throw new TRPCError({ code: "NOT_FOUND", message: USER_NOT_FOUND });
  const { id: _client, ...folder } = input;
  return createFolderIn(ctx, account, folder);
}

export async function clientDocuments(ctx: FirmContext, input: { id: string; folder_id: string | null }): Promise<DocumentItem[]> {
  const accountId = await findClientAccount(ctx, input.id);
  if (input.folder_id) await assertOwnFolder(ctx.db, accountId, input.folder_id);
  return listDocumentsForFirm(ctx.db, accountId, input.folder_id);
}

/** Before the body of the firm's upload is read: the client exists, the admin's hourly limit, what fits in the client's quota. */
export async function prepareClientUpload(ctx: FirmContext, input: { id: string }): Promise<{ remainingBytes: number }> {
  const accountId = await findClientAccount(ctx, input.id);
  return prepareUploadForFirm(ctx, accountId);
}

/** The folder of the firm's upload, before the file is stored: the client account's own, or its root. */
export async function checkClientUploadPlace(ctx: FirmContext, input: { id: string; folder_id: string | null }): Promise<{ success: true }> {
  const accountId = await findClientAccount(ctx, input.id);
  return checkUploadPlaceForFirm(ctx, { folder_id: input.folder_id, request_id: null }, accountId);
}

/** Records the firm's stored upload as the client's document, in one of the client's folders (or their root). */
export async function recordClientUpload(
  ctx: FirmContext,
  input: { id: string; folder_id: string | null; for_signature: boolean; file: ReceivedFile },
): Promise<DocumentItem> {
  try {
    const accountId = await findClientAccount(ctx, input.id);
    return await createDocumentForFirm(ctx, { folder_id: input.folder_id, file: input.file }, accountId, input.for_signature);
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
