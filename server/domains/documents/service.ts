// Documents: listing, search, opening for a download or preview, rename and move. Uploads are in
// upload.ts, the trash in trash.ts.
import { TRPCError } from "@trpc/server";
import { FOREIGN_KEY_VIOLATION, isPgError } from "../../db/errors.ts";
import type { Db } from "../../db/types.ts";
import type { AuthedContext, ClientContext, FirmContext } from "../../trpc/context.ts";
import type { ListPageInput } from "../admin/schemas.ts";
import { listPage } from "../list-page.ts";
import { listFolders } from "../folders/queries.ts";
import { folderName, previewedJustNow, recordDocumentActivity } from "./activity.ts";
import { assertFolderSeen, FOLDER_NOT_FOUND } from "../folders/service.ts";
import { listAllDocuments } from "./firm-queries.ts";
import {
  documentRetainedUntil,
  findStoredDocument,
  findStoredDocumentForFirm,
  listDocuments,
  searchDocumentsQuery,
  type StoredDocument,
  updateDocumentRow,
} from "./queries.ts";
import {
  type DocumentItem,
  type DocumentSearchInput,
  type DocumentSearchResult,
  NO_PREVIEW,
  PREVIEW_CONTENT_TYPES,
  type UpdateDocumentInput,
} from "./schemas.ts";
import { cleanFilename } from "./upload.ts";

export const DOCUMENT_NOT_FOUND = "Document not found";

export function listRootDocuments(ctx: ClientContext): Promise<DocumentItem[]> {
  return listDocuments(ctx.db, ctx.account.id, ctx.user.id, null);
}

export async function listFolderDocuments(ctx: ClientContext, input: { folder_id: string }): Promise<DocumentItem[]> {
  await assertFolderSeen(ctx, input.folder_id);
  return listDocuments(ctx.db, ctx.account.id, ctx.user.id, input.folder_id);
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

/** The current account's live document to stream (see `openDocument`); another's answers like a missing one. */
async function openStoredDocument(ctx: ClientContext, id: string, purpose: "download" | "preview"): Promise<StoredDocument> {
  return openDocument(ctx, await findStoredDocument(ctx.db, id, ctx.account.id, ctx.user.id), purpose);
}

/** Any client's live document to stream, for the firm (see `openDocument`). */
export async function openStoredDocumentForFirm(ctx: FirmContext, id: string, purpose: "download" | "preview"): Promise<StoredDocument> {
  return openDocument(ctx, await findStoredDocumentForFirm(ctx.db, ctx.firmScope, id), purpose);
}

/** The caller's own live document, to stream as a download. */
export function getOwnStoredDocument(ctx: ClientContext, input: { id: string }): Promise<StoredDocument> {
  return openStoredDocument(ctx, input.id, "download");
}

/** The caller's own live document, to show in the browser. */
export function getOwnPreviewDocument(ctx: ClientContext, input: { id: string }): Promise<StoredDocument> {
  return openStoredDocument(ctx, input.id, "preview");
}

function assertPreviewable(document: StoredDocument): StoredDocument {
  if (!(PREVIEW_CONTENT_TYPES as readonly string[]).includes(document.content_type)) {
    throw new TRPCError({ code: "UNSUPPORTED_MEDIA_TYPE", message: NO_PREVIEW });
  }
  return document;
}

/** The caller's live documents whose name contains `q`, across all folders, each with its folder's path. */
export async function searchOwnDocuments(ctx: ClientContext, input: DocumentSearchInput): Promise<DocumentSearchResult[]> {
  const [documents, folders] = await Promise.all([
    searchDocumentsQuery(ctx.db, ctx.account.id, ctx.user.id, input).execute(),
    listFolders(ctx.db, ctx.account.id, ctx.user.id),
  ]);
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

/** The SQLSTATE the documents_retention_guard trigger raises (migration 2026-11-26T0600_signature_requests). */
export const RETAINED_DOCUMENT = "P0002";

/** The 409 for a signed document (or its original) within its retention: docs/decisions.md, "Signatures". */
export function documentRetainedMessage(until: Date): string {
  return `This document is part of a signature record and is kept unchanged until ${until.toISOString().slice(0, 10)}: it cannot be renamed, moved or deleted before then`;
}

export async function assertNotRetained(db: Db, id: string, now: Date): Promise<void> {
  const until = await documentRetainedUntil(db, id, now);
  if (until) throw new TRPCError({ code: "CONFLICT", message: documentRetainedMessage(until) });
}

/** Renames and/or moves one of the caller's live documents (folder_id null: to the root). */
export async function updateDocument(ctx: ClientContext, input: UpdateDocumentInput): Promise<DocumentItem> {
  if (input.folder_id) await assertFolderSeen(ctx, input.folder_id);
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      const before = await findStoredDocument(tx, input.id, ctx.account.id, ctx.user.id);
      if (before) await assertNotRetained(tx, input.id, ctx.now());
      const updated = await updateDocumentRow(tx, ctx.account.id, ctx.user.id, input.id, {
        ...(input.name !== undefined ? { original_filename: cleanFilename(input.name) } : {}),
        ...(input.folder_id !== undefined ? { folder_id: input.folder_id } : {}),
      });
      if (!before || !updated) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_FOUND });
      const document = { id: updated.id, account_id: ctx.account.id, original_filename: updated.original_filename };
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

/** Every client's live documents, a page at a time (the admin Documents tab). */
export const documentPage = (ctx: FirmContext, input: ListPageInput) => listPage(input, (w) => listAllDocuments(ctx.db, ctx.firmScope, w));
