import { TRPCError } from "@trpc/server";
import { fileTypeFromStream, supportedMimeTypes } from "file-type";
import type { Config } from "../../config.ts";
import { FOREIGN_KEY_VIOLATION, isPgError } from "../../db/errors.ts";
import { removeStoredObjects } from "../../storage/remove-stored-objects.ts";
import type { ObjectStorage } from "../../storage/storage.ts";
import type { AuthedContext } from "../../trpc/context.ts";
import { assertOwnFolder, FOLDER_NOT_FOUND } from "../folders/service.ts";
import type { Success } from "../shared-schemas.ts";
import {
  deleteDocumentRow,
  findStoredDocument,
  findStorageQuota,
  insertDocument,
  listDocuments,
  lockStorageQuota,
  storedBytes,
  type StoredDocument,
} from "./queries.ts";
import { BYTES_PER_MB, type DocumentItem, STORAGE_QUOTA_EXCEEDED, type StorageUsage } from "./schemas.ts";

export const DOCUMENT_NOT_FOUND = "Document not found";
const MAX_FILENAME_CHARACTERS = 255;
const FALLBACK_FILENAME = "unnamed";
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

/** The caller's own document, to stream as a download. */
export async function getOwnStoredDocument(ctx: AuthedContext, input: { id: string }): Promise<StoredDocument> {
  const document = await findStoredDocument(ctx.db, input.id, ctx.user.id);
  if (!document) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
  return document;
}

/** A user's quota in bytes: their own if the firm set one, else the default from the environment. */
export function quotaBytes(config: Config, storageQuotaMb: number | null): number {
  return (storageQuotaMb ?? config.clientQuotaMb) * BYTES_PER_MB;
}

/** How much of their quota the caller uses: always their own, no input names a user. */
export async function storageUsage(ctx: AuthedContext): Promise<StorageUsage> {
  const [quota, used] = await Promise.all([findStorageQuota(ctx.db, ctx.user.id), storedBytes(ctx.db, ctx.user.id)]);
  if (!quota) throw new TRPCError({ code: "UNAUTHORIZED", message: ACCOUNT_GONE });
  return { used_bytes: used, quota_bytes: quotaBytes(ctx.config, quota.storage_quota_mb) };
}

/**
 * Before an upload's body is read: counts it against the caller's hourly limit, and says how many
 * bytes still fit in their quota (none, not a negative number, when a lowered quota is overrun).
 */
export async function prepareUpload(ctx: AuthedContext): Promise<{ remainingBytes: number }> {
  await ctx.rateLimits.consumeUpload(ctx.user.id);
  const usage = await storageUsage(ctx);
  return { remainingBytes: Math.max(0, usage.quota_bytes - usage.used_bytes) };
}

/**
 * Records a stored upload as the caller's document. The row is written only now, after the content
 * is safely stored; if anything here fails (a foreign folder, a lost database, the quota) the
 * content goes too.
 */
export async function createDocument(ctx: AuthedContext, input: { folder_id: string | null; file: ReceivedFile }): Promise<DocumentItem> {
  const { file, folder_id: folderId } = input;
  const userId = ctx.user.id;
  try {
    if (folderId) await assertOwnFolder(ctx.db, userId, folderId);
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
        return insertDocument(tx, {
          user_id: userId,
          folder_id: folderId,
          original_filename: cleanFilename(file.filename),
          storage_key: file.key,
          content_type: contentType,
          file_size: file.size,
          sha256: file.sha256,
          upload_date: ctx.now(),
        });
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

/** The row goes first, then the content: a failure in between leaves a stray file, never a broken row. */
export async function removeDocument(ctx: AuthedContext, input: { id: string }): Promise<Success> {
  const deleted = await deleteDocumentRow(ctx.db, input.id, ctx.user.id);
  if (!deleted) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
  await removeStoredObjects(ctx.storage, ctx.logger, [deleted]);
  return { success: true };
}

/** Control and format characters (direction marks and overrides, zero-width ones) and line separators. */
const INVISIBLE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const SHORT_EXTENSION = /\.[^.]{1,16}$/;

/**
 * The user's filename, made safe to show: control characters, invisible ones (the bidirectional
 * overrides and marks that disguise `evil\u202Efdp.exe` as `evilexe.pdf`, zero-width spaces and
 * joiners that make two names look alike) and any path removed, at most 255 characters with the
 * extension kept. It is only ever displayed; storage uses random keys.
 */
export function cleanFilename(raw: string): string {
  const withoutControls = raw.normalize("NFC").replace(INVISIBLE_CHARACTERS, "");
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
