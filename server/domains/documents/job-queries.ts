// The statements of the jobs that follow an upload: its notice's batch, read by the email that closes it
// (upload-notices.ts, mail.ts), and its text for the search index (text-index.ts).
import { type Insertable, sql, type Transaction } from "kysely";
import type { Database, Db } from "../../db/types.ts";

// Upload notices (upload-notices.ts): batches of uploads waiting for their email.

export type NoticeAudience = "client" | "firm";
/** `uploaded_by_name`: who of the account uploaded it (null once they are deleted, or for the firm's own). */
export type NoticedDocument = { original_filename: string; folder_id: string | null; upload_date: Date; uploaded_by_name: string | null };

/** The owner's open batch for `audience`, locked, so the email job closing it waits for the upload's commit. */
export async function findOpenUploadNotice(tx: Transaction<Database>, accountId: string, audience: NoticeAudience) {
  return tx
    .selectFrom("upload_notices")
    .select(["id", "due_at"])
    .where("account_id", "=", accountId)
    .where("audience", "=", audience)
    .where("closed_at", "is", null)
    .forUpdate()
    .executeTakeFirst();
}

export async function insertUploadNotice(db: Db, notice: Insertable<Database["upload_notices"]>) {
  return db.insertInto("upload_notices").values(notice).returning(["id", "due_at"]).executeTakeFirstOrThrow();
}

export async function insertUploadNoticeDocument(db: Db, noticeId: string, documentId: string): Promise<void> {
  await db.insertInto("upload_notice_documents").values({ notice_id: noticeId, document_id: documentId }).execute();
}

/** Closes the batch (already closed on a retry: its first close stays); undefined when it is gone. */
export async function closeUploadNotice(db: Db, noticeId: string, now: Date) {
  return db
    .updateTable("upload_notices")
    .set((eb) => ({ closed_at: eb.fn.coalesce("closed_at", eb.val(now)) }))
    .where("id", "=", noticeId)
    .returning("account_id")
    .executeTakeFirst();
}

/** The batch's documents still live, oldest first. */
export async function listNoticedDocuments(db: Db, noticeId: string): Promise<NoticedDocument[]> {
  return db
    .selectFrom("upload_notice_documents")
    .innerJoin("documents", "documents.id", "upload_notice_documents.document_id")
    .leftJoin("users as uploader", "uploader.id", "documents.uploaded_by")
    .select(["documents.original_filename", "documents.folder_id", "documents.upload_date", "uploader.name as uploaded_by_name"])
    .where("upload_notice_documents.notice_id", "=", noticeId)
    .where("documents.deleted_at", "is", null)
    .orderBy("documents.upload_date")
    .orderBy("documents.id")
    .execute();
}

/** Closed batches are kept as long as sent-mail records, then swept (jobs/sweeps.ts). */
export async function deleteClosedNotices(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom("upload_notices").where("closed_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

const DOCUMENT_NAMES_IN_EMAILS = "include_document_names_in_emails";

export async function findDocumentNamesSetting(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom("firm_settings").select("value").where("key", "=", DOCUMENT_NAMES_IN_EMAILS).executeTakeFirst();
  return row?.value;
}

export async function upsertDocumentNamesSetting(db: Db, value: string, now: Date): Promise<void> {
  await db
    .insertInto("firm_settings")
    .values({ key: DOCUMENT_NAMES_IN_EMAILS, value, updated_at: now })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
    .execute();
}

/** What extracting a document's text needs, while it is live and not yet tried; undefined otherwise. */
export async function findDocumentForText(db: Db, id: string) {
  return db
    .selectFrom("documents")
    .select(["id", "storage_key", "content_type", "file_size"])
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .where("text_extracted_at", "is", null)
    .executeTakeFirst();
}

/**
 * Records a document's extracted text as its lexemes (null: nothing to read, or skipped), once:
 * a second run of the same job, or the backfill after it, finds it done.
 */
export async function recordDocumentText(db: Db, id: string, text: string | null, at: Date): Promise<void> {
  await db
    .updateTable("documents")
    .set({
      content_vector: text === null || text.trim() === "" ? null : sql<string>`to_tsvector('english'::regconfig, ${text})`,
      text_extracted_at: at,
    })
    .where("id", "=", id)
    .where("text_extracted_at", "is", null)
    .execute();
}

/** The backfill's next live documents not yet tried, after `afterId` in id order (documents_text_pending_idx). */
export async function pendingTextDocuments(db: Db, afterId: string | null, limit: number): Promise<string[]> {
  let query = db.selectFrom("documents").select("id").where("text_extracted_at", "is", null).where("deleted_at", "is", null);
  if (afterId) query = query.where("id", ">", afterId);
  const rows = await query.orderBy("id").limit(limit).execute();
  return rows.map((r) => r.id);
}
