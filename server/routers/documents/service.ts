import { TRPCError } from "@trpc/server";
import { fileTypeFromStream, supportedMimeTypes } from "file-type";
import type { Kysely } from "kysely";
import type { Database } from "../../db/types.ts";
import type { ObjectStorage } from "../../storage/storage.ts";
import type { Context } from "../../trpc/context.ts";
import { assertOwnFolder, FOLDER_NOT_FOUND, FOREIGN_KEY_VIOLATION, isPgError } from "../folders/service.ts";
import type { Config } from "../../config.ts";
import {
  deleteOwnDocument,
  findOwnStoredDocument,
  findStorageQuota,
  insertDocument,
  listDocuments,
  lockStorageQuota,
  removeStoredObjects,
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

export async function listFolderDocuments(db: Kysely<Database>, userId: string, folderId: string): Promise<DocumentItem[]> {
  await assertOwnFolder(db, userId, folderId);
  return listDocuments(db, userId, folderId);
}

export async function getOwnStoredDocument(db: Kysely<Database>, userId: string, id: string): Promise<StoredDocument> {
  const document = await findOwnStoredDocument(db, userId, id);
  if (!document) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
  return document;
}

/** A user's quota in bytes: their own if the firm set one, else the default from the environment. */
export function quotaBytes(config: Config, storageQuotaMb: number | null): number {
  return (storageQuotaMb ?? config.clientQuotaMb) * BYTES_PER_MB;
}

export async function storageUsage(db: Kysely<Database>, config: Config, userId: string): Promise<StorageUsage> {
  const [quota, used] = await Promise.all([findStorageQuota(db, userId), storedBytes(db, userId)]);
  if (!quota) throw new TRPCError({ code: "UNAUTHORIZED", message: ACCOUNT_GONE });
  return { used_bytes: used, quota_bytes: quotaBytes(config, quota.storage_quota_mb) };
}

/**
 * Records a stored upload as the caller's document. The row is written only now, after the content
 * is safely stored; if anything here fails (a foreign folder, a lost database, the quota) the
 * content goes too.
 */
export async function createDocument(
  ctx: Context,
  userId: string,
  folderId: string | null,
  file: ReceivedFile,
): Promise<DocumentItem> {
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
export async function removeDocument(ctx: Context, userId: string, id: string): Promise<{ success: true }> {
  const deleted = await deleteOwnDocument(ctx.db, userId, id);
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
  return characters.slice(0, MAX_FILENAME_CHARACTERS - extension.length).join("").trimEnd() + extension.join("");
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
