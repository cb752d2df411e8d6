// Uploads: the quota, the checks before the body is read, the row written once the content is stored,
// and the filename and content type the row records.
import { TRPCError } from "@trpc/server";
import { fileTypeFromStream, supportedMimeTypes } from "file-type";
import type { Config } from "../../config.ts";
import { FOREIGN_KEY_VIOLATION, isPgError } from "../../db/errors.ts";
import { removeStoredObjects } from "../../storage/remove-stored-objects.ts";
import type { ObjectStorage } from "../../storage/storage.ts";
import type { AuthedContext, ClientContext } from "../../trpc/context.ts";
import { addUploadToInbox } from "../inbox/queries.ts";
import { folderName, recordDocumentActivity } from "./activity.ts";
import { assertFolderSeen, assertOwnFolder, FOLDER_NOT_FOUND } from "../folders/service.ts";
import { checkOrganizerUpload, organizerForUpload } from "../organizers/service.ts";
import { requestForUpload } from "../requests/service.ts";
import { stripInvisible } from "../shared-schemas.ts";
import { addToUploadNotice } from "./upload-notices.ts";
import { TEXT_CONTENT_TYPES } from "./content-text.ts";
import { findAnswerWithSameBytes, findStorageQuota, insertDocument, linkDocumentAnswer, lockStorageQuota, storedBytes } from "./queries.ts";
import { BYTES_PER_MB, type DocumentItem, STORAGE_QUOTA_EXCEEDED, type StorageUsage } from "./schemas.ts";

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

/** Where an upload goes: a folder, or what it answers (a request and its item, or an organizer's file question). */
type UploadPlace = {
  folder_id: string | null;
  request_id?: string | null;
  request_item_id?: string | null;
  organizer_id?: string | null;
  question_id?: string | null;
};

/** A user's quota in bytes: their own if the firm set one, else the default from the environment. */
export function quotaBytes(config: Config, storageQuotaMb: number | null): number {
  return (storageQuotaMb ?? config.clientQuotaMb) * BYTES_PER_MB;
}

/** How much of their quota the caller uses. */
export async function storageUsage(ctx: ClientContext): Promise<StorageUsage> {
  return storageUsageOf(ctx, ctx.account.id);
}

/** How much of their quota the owner uses. */
async function storageUsageOf(ctx: AuthedContext, accountId: string): Promise<StorageUsage> {
  const [quota, used] = await Promise.all([findStorageQuota(ctx.db, accountId), storedBytes(ctx.db, accountId)]);
  if (!quota) throw new TRPCError({ code: "UNAUTHORIZED", message: ACCOUNT_GONE });
  return { used_bytes: used, quota_bytes: quotaBytes(ctx.config, quota.storage_quota_mb) };
}

/** prepareUploadForFirm for an upload into the caller's own documents. */
export async function prepareUpload(ctx: ClientContext): Promise<{ remainingBytes: number }> {
  return prepareUploadForFirm(ctx, ctx.account.id);
}

/**
 * Before an upload's body is read: counts it against the caller's hourly limit, and says how many
 * bytes still fit in the owner's quota (none, not a negative number, when a lowered quota is overrun).
 * Any owner: the firm's upload into a client's documents.
 */
export async function prepareUploadForFirm(ctx: AuthedContext, accountId: string): Promise<{ remainingBytes: number }> {
  await ctx.rateLimits.consumeUpload(ctx.user.id);
  const usage = await storageUsageOf(ctx, accountId);
  return { remainingBytes: Math.max(0, usage.quota_bytes - usage.used_bytes) };
}

/** checkUploadPlaceForFirm for the caller's own documents. */
export async function checkUploadPlace(ctx: ClientContext, input: UploadPlace): Promise<{ success: true }> {
  if (input.folder_id) await assertFolderSeen(ctx, input.folder_id);
  return checkUploadPlaceForFirm(ctx, input, ctx.account.id);
}

/**
 * Refuses an upload's folder or request that is not the owner's (or a request no longer open)
 * before its file is stored: the upload route asks as soon as the fields before the file part
 * have arrived. createDocument checks both again when it writes the row. Any owner: the firm's
 * upload into a client's documents.
 */
export async function checkUploadPlaceForFirm(ctx: AuthedContext, input: UploadPlace, accountId: string): Promise<{ success: true }> {
  if (input.folder_id) await assertOwnFolder(ctx.db, accountId, input.folder_id);
  const requestId = input.request_id;
  if (requestId) await ctx.db.transaction().execute((tx) => requestForUpload(tx, accountId, requestId, input.request_item_id ?? null));
  const organizerId = input.organizer_id;
  if (organizerId) await ctx.db.transaction().execute((tx) => checkOrganizerUpload(tx, accountId, organizerId, input.question_id ?? null));
  return { success: true };
}

/** createDocumentForFirm in the caller's own documents. */
export async function createDocument(ctx: ClientContext, input: UploadPlace & { file: ReceivedFile }): Promise<DocumentItem> {
  // Another person's private folder answers like a missing one (docs/decisions.md, "Private folders").
  if (input.folder_id) {
    try {
      await assertFolderSeen(ctx, input.folder_id);
    } catch (err) {
      await removeStoredObjects(ctx.storage, ctx.logger, [{ storage_key: input.file.key }]);
      throw err;
    }
  }
  return recordDocument(ctx, input, ctx.account.id, "client");
}

/**
 * Records a stored upload as the firm's, into a client account's documents (createDocument: one of
 * the account's people's own), uploaded by the caller. The row is written only now, after the
 * content is safely stored; if anything here fails (a foreign folder, a lost database, the quota)
 * the content goes too. It joins the batch its email tells (upload-notices.ts).
 */
export function createDocumentForFirm(
  ctx: AuthedContext,
  input: UploadPlace & { file: ReceivedFile },
  accountId: string,
  forSignature = false,
): Promise<DocumentItem> {
  return recordDocument(ctx, input, accountId, forSignature ? "firm, for signature" : "firm");
}

/**
 * Both: `by` says whose upload it is (the account's people, the firm into a client's account, or the
 * firm's PDF for a signature request it prepares, which the account's people do not see until the
 * request is sent: docs/decisions.md, "A PDF for a signature request waits for the request").
 */
async function recordDocument(
  ctx: AuthedContext,
  input: UploadPlace & { file: ReceivedFile },
  accountId: string,
  by: "client" | "firm" | "firm, for signature",
): Promise<DocumentItem> {
  const { file, folder_id: chosenFolderId } = input;
  let linked: DocumentItem | null = null;
  try {
    if (chosenFolderId) await assertOwnFolder(ctx.db, accountId, chosenFolderId);
    const contentType = await detectContentType(ctx.storage, file.key, file.declaredType);
    const hasText = TEXT_CONTENT_TYPES.includes(contentType);
    const recorded = await ctx.db
      .transaction()
      .execute(async (tx) => {
        // The upload route checked the quota before storing, but uploads running side by side all
        // passed that check against the same usage: only here, one at a time, is the sum exact.
        // The sum is a statement of its own, after the lock: in READ COMMITTED it then sees the
        // documents of the upload that held the lock before us.
        const quota = await lockStorageQuota(tx, accountId);
        if (!quota) throw new TRPCError({ code: "UNAUTHORIZED", message: ACCOUNT_GONE });
        const used = await storedBytes(tx, accountId);
        if (used + file.size > quotaBytes(ctx.config, quota.storage_quota_mb)) {
          throw new TRPCError({ code: "PAYLOAD_TOO_LARGE", message: STORAGE_QUOTA_EXCEEDED });
        }
        // An upload against a request goes into the request's folder, when it has one.
        const request = input.request_id ? await requestForUpload(tx, accountId, input.request_id, input.request_item_id ?? null) : null;
        // An answer to an organizer's file question goes into the account's folder for the organizer.
        const organizer = input.organizer_id
          ? await organizerForUpload(tx, accountId, input.organizer_id, input.question_id ?? null, ctx.now())
          : null;
        // The same file already sent as the other kind of answer (a W-2 uploaded for the organizer, now
        // for the request): that document answers this too, so it counts here and the firm gets no copy.
        const same =
          request && !organizer
            ? await findAnswerWithSameBytes(tx, accountId, file.sha256, "request")
            : organizer && !request
              ? await findAnswerWithSameBytes(tx, accountId, file.sha256, "organizer")
              : undefined;
        if (same) {
          linked = await linkDocumentAnswer(
            tx,
            same.id,
            request
              ? { request_id: request.id, request_item_id: request.item?.id ?? null }
              : { organizer_id: organizer!.id, organizer_question_id: organizer!.question_id },
          );
          await recordDocumentActivity(
            tx,
            ctx,
            "document.upload",
            { ...linked, account_id: accountId },
            {
              already_uploaded: true,
              ...(request ? { request: request.title } : {}),
              ...(request?.item ? { request_item: request.item.title } : {}),
              ...(organizer ? { organizer: organizer.title } : {}),
            },
          );
          return linked;
        }
        const folderId = organizer?.folder_id ?? request?.folder_id ?? chosenFolderId;
        const document = await insertDocument(tx, {
          account_id: accountId,
          uploaded_by: ctx.user.id,
          folder_id: folderId,
          request_id: request?.id ?? null,
          request_item_id: request?.item?.id ?? null,
          organizer_id: organizer?.id ?? null,
          organizer_question_id: organizer?.question_id ?? null,
          original_filename: cleanFilename(file.filename),
          storage_key: file.key,
          content_type: contentType,
          file_size: file.size,
          sha256: file.sha256,
          upload_date: ctx.now(),
          held_for_signature: by === "firm, for signature",
          // Nothing to read in an image or an archive: not on the text backfill's worklist.
          text_extracted_at: hasText ? null : ctx.now(),
        });
        // Its text is read after the answer, by a job that exists only if this row commits.
        if (hasText) await ctx.jobs.send("document-text", { documentId: document.id }, { tx });
        await recordDocumentActivity(
          tx,
          ctx,
          "document.upload",
          { ...document, account_id: accountId },
          {
            folder: await folderName(tx, folderId),
            ...(request ? { request: request.title } : {}),
            ...(request?.item ? { request_item: request.item.title } : {}),
            ...(organizer ? { organizer: organizer.title } : {}),
            ...(by === "firm, for signature" ? { for_signature: true } : {}),
          },
        );
        // A client's upload (by any of the account's people) is news for the firm (digest, Inbox);
        // the firm's, for the client. An admin filing into an account of their own is neither, nor a
        // PDF held for a signature request, which the request's own mail announces when it is sent.
        if (by === "firm") {
          await addToUploadNotice(tx, ctx.jobs, { accountId, documentId: document.id, audience: "client", now: ctx.now() });
        } else if (by === "client" && !ctx.user.is_admin) {
          await addToUploadNotice(tx, ctx.jobs, { accountId, documentId: document.id, audience: "firm", now: ctx.now() });
          await addUploadToInbox(tx, {
            account_id: accountId,
            actor_id: ctx.user.id,
            document_id: document.id,
            name: document.original_filename,
            at: ctx.now(),
          });
        }
        return document;
      })
      .catch((err: unknown) => {
        // The folder was deleted while the file was arriving.
        if (isPgError(err, FOREIGN_KEY_VIOLATION)) throw new TRPCError({ code: "NOT_FOUND", message: FOLDER_NOT_FOUND });
        throw err;
      });
    // Its bytes were already stored once: this copy goes.
    if (linked) await removeStoredObjects(ctx.storage, ctx.logger, [{ storage_key: file.key }]);
    return recorded;
  } catch (err) {
    await removeStoredObjects(ctx.storage, ctx.logger, [{ storage_key: file.key }]);
    throw err;
  }
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
async function detectContentType(storage: ObjectStorage, key: string, declared: string): Promise<string> {
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
