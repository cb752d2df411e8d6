import { TRPCError } from "@trpc/server";
import type { Transaction } from "kysely";
import { fileTypeFromStream, supportedMimeTypes } from "file-type";
import type { Config } from "../../config.ts";
import type { Database } from "../../db/types.ts";
import { FOREIGN_KEY_VIOLATION, isPgError } from "../../db/errors.ts";
import { removeStoredObjects } from "../../storage/remove-stored-objects.ts";
import type { ObjectStorage } from "../../storage/storage.ts";
import type { AuthedContext, Context } from "../../trpc/context.ts";
import { listFolders } from "../folders/queries.ts";
import { addUploadToInbox } from "../inbox/record.ts";
import { type DocumentRef, folderName, previewedJustNow, recordDocumentActivity } from "./activity.ts";
import { assertOwnFolder, FOLDER_NOT_FOUND } from "../folders/service.ts";
import { requestForUpload } from "../requests/service.ts";
import { stripInvisible, type Success } from "../shared-schemas.ts";
import { addToUploadNotice } from "./upload-notices.ts";
import {
  deleteTrashedDocumentRow,
  findStoredDocument,
  findStoredDocumentForFirm,
  findStorageQuota,
  findTrashedDocument,
  findTrashedDocumentForFirm,
  insertDocument,
  listDocuments,
  listTrash,
  lockOwnFolder,
  lockStorageQuota,
  purgeTrashBatch,
  restoreDocumentRow,
  searchDocumentsQuery,
  storedBytes,
  type StoredDocument,
  trashDocumentRow,
  trashDocumentRowForFirm,
  updateDocumentRow,
} from "./queries.ts";
import {
  BYTES_PER_MB,
  type DocumentItem,
  type DocumentSearchInput,
  type DocumentSearchResult,
  NO_PREVIEW,
  PREVIEW_CONTENT_TYPES,
  STORAGE_QUOTA_EXCEEDED,
  type StorageUsage,
  type TrashedDocument,
  TRASH_RETENTION_DAYS,
  type UpdateDocumentInput,
} from "./schemas.ts";

export const DOCUMENT_NOT_FOUND = "Document not found";
const MAX_FILENAME_CHARACTERS = 255;
export const FALLBACK_FILENAME = "unnamed";
const GENERIC_CONTENT_TYPE = "application/octet-stream";
/** The account was deleted while its request ran: answered like the session it had, which is gone too. */
const ACCOUNT_GONE = "Not authenticated";

/** An upload whose content is already in storage under `key`, not yet recorded. */
export type ReceivedFile = {
  key: string;
  size: number;
  sha256: string;
  filename: string;
  declaredType: string;
};

export function listRootDocuments(ctx: AuthedContext): Promise<DocumentItem[]> {
  return listDocuments(ctx.db, ctx.user.id, null);
}

export async function listFolderDocuments(ctx: AuthedContext, input: { folder_id: string }): Promise<DocumentItem[]> {
  await assertOwnFolder(ctx.db, ctx.user.id, input.folder_id);
  return listDocuments(ctx.db, ctx.user.id, input.folder_id);
}

/**
 * A live document to stream, recorded in its owner's trail as downloaded or previewed by whoever
 * asks (a person's previews of one document within a minute are one entry). A preview is only of
 * the types a browser shows safely.
 */
async function openDocument(ctx: AuthedContext, document: StoredDocument | undefined, purpose: "download" | "preview"): Promise<StoredDocument> {
  if (!document) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
  if (purpose === "download") {
    await recordDocumentActivity(ctx.db, ctx, "document.download", document);
  } else {
    assertPreviewable(document);
    if (!(await previewedJustNow(ctx.db, ctx, document))) await recordDocumentActivity(ctx.db, ctx, "document.preview", document);
  }
  return document;
}

/** The owner's live document to stream (see `openDocument`); another's answers like a missing one. */
async function openStoredDocument(ctx: AuthedContext, id: string, purpose: "download" | "preview", ownerId: string): Promise<StoredDocument> {
  return openDocument(ctx, await findStoredDocument(ctx.db, id, ownerId), purpose);
}

/** Any client's live document to stream, for the firm (see `openDocument`). */
export async function openStoredDocumentForFirm(ctx: AuthedContext, id: string, purpose: "download" | "preview"): Promise<StoredDocument> {
  return openDocument(ctx, await findStoredDocumentForFirm(ctx.db, id), purpose);
}

/** The caller's own live document, to stream as a download. */
export function getOwnStoredDocument(ctx: AuthedContext, input: { id: string }): Promise<StoredDocument> {
  return openStoredDocument(ctx, input.id, "download", ctx.user.id);
}

/** The caller's own live document, to show in the browser. */
export function getOwnPreviewDocument(ctx: AuthedContext, input: { id: string }): Promise<StoredDocument> {
  return openStoredDocument(ctx, input.id, "preview", ctx.user.id);
}

export function assertPreviewable(document: StoredDocument): StoredDocument {
  if (!(PREVIEW_CONTENT_TYPES as readonly string[]).includes(document.content_type)) {
    throw new TRPCError({ code: "UNSUPPORTED_MEDIA_TYPE", message: NO_PREVIEW });
  }
  return document;
}

/** The caller's live documents whose name contains `q`, across all folders, each with its folder's path. */
export async function searchOwnDocuments(ctx: AuthedContext, input: DocumentSearchInput): Promise<DocumentSearchResult[]> {
  const [documents, folders] = await Promise.all([searchDocumentsQuery(ctx.db, ctx.user.id, input).execute(), listFolders(ctx.db, ctx.user.id)]);
  const byId = new Map(folders.map((f) => [f.id, f]));
  const paths = new Map<string, { id: string; name: string }[]>();
  const pathTo = (folderId: string | null): { id: string; name: string }[] => {
    if (folderId === null) return [];
    let path = paths.get(folderId);
    if (!path) {
      path = [];
      // Walks up to the root; the bound only guards against a cycle the moves never let happen.
      for (let folder = byId.get(folderId); folder && path.length <= byId.size; folder = byId.get(folder.parent_folder_id ?? "")) {
        path.unshift({ id: folder.id, name: folder.name });
      }
      paths.set(folderId, path);
    }
    return path;
  };
  return documents.map((document) => ({ ...document, folder_path: pathTo(document.folder_id) }));
}

/** Renames and/or moves one of the caller's live documents (folder_id null: to the root). */
export async function updateDocument(ctx: AuthedContext, input: UpdateDocumentInput): Promise<DocumentItem> {
  if (input.folder_id) await assertOwnFolder(ctx.db, ctx.user.id, input.folder_id);
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      const before = await findStoredDocument(tx, input.id, ctx.user.id);
      const updated = await updateDocumentRow(tx, ctx.user.id, input.id, {
        ...(input.name !== undefined ? { original_filename: cleanFilename(input.name) } : {}),
        ...(input.folder_id !== undefined ? { folder_id: input.folder_id } : {}),
      });
      if (!before || !updated) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
      const document = { id: updated.id, user_id: ctx.user.id, original_filename: updated.original_filename };
      if (updated.original_filename !== before.original_filename) {
        await recordDocumentActivity(tx, ctx, "document.rename", document, { from: before.original_filename });
      }
      if (input.folder_id !== undefined) {
        await recordDocumentActivity(tx, ctx, "document.move", document, { folder: await folderName(tx, updated.folder_id) });
      }
      return updated;
    });
  } catch (err) {
    // The folder was deleted between the check and the move.
    if (isPgError(err, FOREIGN_KEY_VIOLATION)) throw new TRPCError({ code: "NOT_FOUND", message: FOLDER_NOT_FOUND });
    throw err;
  }
}

/** A user's quota in bytes: their own if the firm set one, else the default from the environment. */
export function quotaBytes(config: Config, storageQuotaMb: number | null): number {
  return (storageQuotaMb ?? config.clientQuotaMb) * BYTES_PER_MB;
}

/** How much of their quota the caller uses (or, for the firm's upload into a client's documents, that client). */
export async function storageUsage(ctx: AuthedContext, ownerId: string = ctx.user.id): Promise<StorageUsage> {
  const [quota, used] = await Promise.all([findStorageQuota(ctx.db, ownerId), storedBytes(ctx.db, ownerId)]);
  if (!quota) throw new TRPCError({ code: "UNAUTHORIZED", message: ACCOUNT_GONE });
  return { used_bytes: used, quota_bytes: quotaBytes(ctx.config, quota.storage_quota_mb) };
}

/**
 * Before an upload's body is read: counts it against the caller's hourly limit, and says how many
 * bytes still fit in the owner's quota (none, not a negative number, when a lowered quota is overrun).
 */
export async function prepareUpload(ctx: AuthedContext, ownerId: string = ctx.user.id): Promise<{ remainingBytes: number }> {
  await ctx.rateLimits.consumeUpload(ctx.user.id);
  const usage = await storageUsage(ctx, ownerId);
  return { remainingBytes: Math.max(0, usage.quota_bytes - usage.used_bytes) };
}

/**
 * Refuses an upload's folder or request that is not the owner's (or a request no longer open)
 * before its file is stored: the upload route asks as soon as the fields before the file part
 * have arrived. createDocument checks both again when it writes the row.
 */
export async function checkUploadPlace(
  ctx: AuthedContext,
  input: { folder_id: string | null; request_id: string | null },
  ownerId: string = ctx.user.id,
): Promise<{ success: true }> {
  if (input.folder_id) await assertOwnFolder(ctx.db, ownerId, input.folder_id);
  const requestId = input.request_id;
  if (requestId) await ctx.db.transaction().execute((tx) => requestForUpload(tx, ownerId, requestId));
  return { success: true };
}

/**
 * Records a stored upload as the caller's document (with `ownerId`, the firm's upload into that
 * client's documents: theirs, uploaded by the caller). The row is written only now, after the
 * content is safely stored; if anything here fails (a foreign folder, a lost database, the quota)
 * the content goes too. It joins the batch its email tells (upload-notices.ts).
 */
export async function createDocument(
  ctx: AuthedContext,
  input: { folder_id: string | null; request_id?: string | null; file: ReceivedFile },
  ownerId: string = ctx.user.id,
): Promise<DocumentItem> {
  const { file, folder_id: chosenFolderId } = input;
  const userId = ownerId;
  try {
    if (chosenFolderId) await assertOwnFolder(ctx.db, userId, chosenFolderId);
    const contentType = await detectContentType(ctx.storage, file.key, file.declaredType);
    return await ctx.db
      .transaction()
      .execute(async (tx) => {
        // The upload route checked the quota before storing, but uploads running side by side all
        // passed that check against the same usage: only here, one at a time, is the sum exact.
        // The sum is a statement of its own, after the lock: in READ COMMITTED it then sees the
        // documents of the upload that held the lock before us.
        const quota = await lockStorageQuota(tx, userId);
        if (!quota) throw new TRPCError({ code: "UNAUTHORIZED", message: ACCOUNT_GONE });
        const used = await storedBytes(tx, userId);
        if (used + file.size > quotaBytes(ctx.config, quota.storage_quota_mb)) {
          throw new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: STORAGE_QUOTA_EXCEEDED });
        }
        // An upload against a request goes into the request's folder, when it has one.
        const request = input.request_id ? await requestForUpload(tx, userId, input.request_id) : null;
        const folderId = request?.folder_id ?? chosenFolderId;
        const document = await insertDocument(tx, {
          user_id: userId,
          uploaded_by: ctx.user.id,
          folder_id: folderId,
          request_id: request?.id ?? null,
          original_filename: cleanFilename(file.filename),
          storage_key: file.key,
          content_type: contentType,
          file_size: file.size,
          sha256: file.sha256,
          upload_date: ctx.now(),
        });
        await recordDocumentActivity(
          tx,
          ctx,
          "document.upload",
          { ...document, user_id: userId },
          { folder: await folderName(tx, folderId), ...(request ? { request: request.title } : {}) },
        );
        // A client's own upload is news for the firm (digest, Inbox); the firm's, for the client. An
        // admin filing into their own documents is neither.
        if (userId !== ctx.user.id) {
          await addToUploadNotice(tx, ctx.jobs, { ownerId: userId, documentId: document.id, audience: "client", now: ctx.now() });
        } else if (!ctx.user.is_admin) {
          await addToUploadNotice(tx, ctx.jobs, { ownerId: userId, documentId: document.id, audience: "firm", now: ctx.now() });
          await addUploadToInbox(tx, { client_id: userId, document_id: document.id, name: document.original_filename, at: ctx.now() });
        }
        return document;
      })
      .catch((err: unknown) => {
        // The folder was deleted while the file was arriving.
        if (isPgError(err, FOREIGN_KEY_VIOLATION)) throw new TRPCError({ code: "NOT_FOUND", message: FOLDER_NOT_FOUND });
        throw err;
      });
  } catch (err) {
    await removeStoredObjects(ctx.storage, ctx.logger, [{ storage_key: file.key }]);
    throw err;
  }
}

/** Moves a live document to the trash with `trash` (the owner's or the firm's row update); its content stays until purged. */
async function moveToTrash(
  ctx: AuthedContext,
  trash: (tx: Transaction<Database>, deletedAt: Date) => Promise<DocumentRef | undefined>,
): Promise<Success> {
  await ctx.db.transaction().execute(async (tx) => {
    const trashed = await trash(tx, ctx.now());
    if (!trashed) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
    await recordDocumentActivity(tx, ctx, "document.trash", trashed);
  });
  return { success: true };
}

/** Moves the owner's live document to the trash; another's answers like a missing one. */
function trashDocument(ctx: AuthedContext, id: string, ownerId: string): Promise<Success> {
  return moveToTrash(ctx, (tx, deletedAt) => trashDocumentRow(tx, id, deletedAt, ownerId));
}

/** Moves any client's live document to its owner's trash, for the firm. */
export function trashDocumentForFirm(ctx: AuthedContext, id: string): Promise<Success> {
  return moveToTrash(ctx, (tx, deletedAt) => trashDocumentRowForFirm(tx, id, deletedAt));
}

export function removeDocument(ctx: AuthedContext, input: { id: string }): Promise<Success> {
  return trashDocument(ctx, input.id, ctx.user.id);
}

const DAY_MS = 24 * 60 * 60 * 1000;
const TRASH_RETENTION_MS = TRASH_RETENTION_DAYS * DAY_MS;

export function purgeDate(deletedAt: Date): Date {
  return new Date(deletedAt.getTime() + TRASH_RETENTION_MS);
}

export async function listOwnTrash(ctx: AuthedContext): Promise<TrashedDocument[]> {
  const rows = await listTrash(ctx.db, ctx.user.id);
  return rows.map((row) => ({ ...row, purge_at: purgeDate(row.deleted_at) }));
}

/**
 * Takes a trashed document (found by `find`: the owner's or the firm's look-up) back to the folder
 * it came from, or to the root when that folder is gone. The folder is locked before the document
 * is touched, so a folder delete at the same moment either sees the document back (and refuses, not
 * empty) or is seen to have happened (root).
 */
async function restoreFromTrash(
  ctx: AuthedContext,
  id: string,
  find: (tx: Transaction<Database>) => Promise<{ user_id: string; trashed_from_folder_id: string | null } | undefined>,
): Promise<DocumentItem> {
  return ctx.db.transaction().execute(async (tx) => {
    const trashed = await find(tx);
    if (!trashed) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
    const from = trashed.trashed_from_folder_id;
    const folderId = from !== null && (await lockOwnFolder(tx, trashed.user_id, from)) ? from : null;
    const restored = await restoreDocumentRow(tx, id, folderId);
    // Restored, deleted for good or purged by someone else in between.
    if (!restored) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
    await recordDocumentActivity(tx, ctx, "document.restore", { ...restored, user_id: trashed.user_id }, { folder: await folderName(tx, folderId) });
    return restored;
  });
}

/** Restores the owner's trashed document (see `restoreFromTrash`); another's answers like a missing one. */
function restoreTrashedDocument(ctx: AuthedContext, id: string, ownerId: string): Promise<DocumentItem> {
  return restoreFromTrash(ctx, id, (tx) => findTrashedDocument(tx, id, ownerId));
}

/** Restores any client's trashed document into its owner's folders, for the firm (see `restoreFromTrash`). */
export function restoreTrashedDocumentForFirm(ctx: AuthedContext, id: string): Promise<DocumentItem> {
  return restoreFromTrash(ctx, id, (tx) => findTrashedDocumentForFirm(tx, id));
}

export function restoreOwnDocument(ctx: AuthedContext, input: { id: string }): Promise<DocumentItem> {
  return restoreTrashedDocument(ctx, input.id, ctx.user.id);
}

/** Only a trashed document is deleted for good. The row goes first, then the content: a failure in between leaves a stray file, never a broken row. */
export async function deleteOwnDocumentForever(ctx: AuthedContext, input: { id: string }): Promise<Success> {
  const deleted = await ctx.db.transaction().execute(async (tx) => {
    const row = await deleteTrashedDocumentRow(tx, input.id, ctx.user.id);
    if (!row) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
    await recordDocumentActivity(tx, ctx, "document.delete", row);
    return row;
  });
  await removeStoredObjects(ctx.storage, ctx.logger, [deleted]);
  return { success: true };
}

const PURGE_BATCH = 100;
/** A run purges at most this many batches; the next hourly run goes on where it stopped. */
const PURGE_MAX_BATCHES = 100;

/**
 * Deletes for good what has been in the trash longer than the retention, in batches of 100 rows,
 * each batch a short statement of its own and its stored objects removed once it has committed.
 * Returns how many documents went.
 */
export async function purgeExpiredTrash(deps: Pick<Context, "db" | "storage" | "logger" | "now">): Promise<number> {
  const cutoff = new Date(deps.now().getTime() - TRASH_RETENTION_MS);
  let purged = 0;
  for (let batch = 0; batch < PURGE_MAX_BATCHES; batch++) {
    const removed = await purgeTrashBatch(deps.db, cutoff, PURGE_BATCH);
    await removeStoredObjects(deps.storage, deps.logger, removed);
    purged += removed.length;
    if (removed.length < PURGE_BATCH) break;
  }
  return purged;
}

const SHORT_EXTENSION = /\.[^.]{1,16}$/;

/**
 * The user's filename, made safe to show: control characters, invisible ones (the bidirectional
 * overrides and marks that disguise `evil\u202Efdp.exe` as `evilexe.pdf`, zero-width spaces and
 * joiners that make two names look alike) and any path removed, at most 255 characters with the
 * extension kept. It is only ever displayed; storage uses random keys.
 */
export function cleanFilename(raw: string): string {
  const withoutControls = stripInvisible(raw);
  const name = (withoutControls.split(/[/\\]/).pop() ?? "").trim();
  if (name === "" || name === "." || name === "..") return FALLBACK_FILENAME;
  const characters = Array.from(name);
  if (characters.length <= MAX_FILENAME_CHARACTERS) return name;
  const extension = Array.from(SHORT_EXTENSION.exec(name)?.[0] ?? "");
  return (
    characters
      .slice(0, MAX_FILENAME_CHARACTERS - extension.length)
      .join("")
      .trimEnd() + extension.join("")
  );
}

const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/**
 * The type recorded for the content. What the content itself shows (file-type) wins over what the
 * client declared; a declared type that file-type knows how to recognise but did not find in the
 * content is a false claim; anything unknown or malformed becomes application/octet-stream.
 */
export async function detectContentType(storage: ObjectStorage, key: string, declared: string): Promise<string> {
  const stream = await storage.get(key);
  let detected: string | undefined;
  try {
    // Node runs file-type's Node entry point, which reads Node streams; TypeScript (bundler
    // resolution) sees only the web-stream typings of the default entry point.
    detected = (await fileTypeFromStream(stream as never))?.mime;
  } finally {
    stream.destroy();
  }
  if (detected) return detected;
  const claimed = declared.trim().toLowerCase();
  if (!MIME_TYPE.test(claimed) || supportedMimeTypes.has(claimed as never)) return GENERIC_CONTENT_TYPE;
  return claimed;
}
