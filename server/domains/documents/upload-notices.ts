// Uploads are told in batches, by one mechanism for both directions (docs/decisions.md, "Documents
// from the firm and upload notifications"): the firm's uploads to the client (at most one email per
// 5 minutes) and the client's uploads to the firm (a digest per 10 minutes). The first upload of a
// batch opens an upload_notices row and queues its email job for the end of the window, in the
// upload's own transaction; later uploads in the window join that row. The email job closes the
// batch when it runs and lists what it holds then, so an upload after that opens the next batch.
import type { Transaction } from "kysely";
import type { Database, Db } from "../../db/types.ts";
import type { Jobs } from "../../jobs/queue.ts";

export type NoticeAudience = "client" | "firm";

/** How long a batch stays open after its first upload. */
export const NOTICE_WINDOW_MS: Record<NoticeAudience, number> = {
  client: 5 * 60 * 1000,
  firm: 10 * 60 * 1000,
};

const MAIL_KIND = { client: "documents-shared", firm: "upload-digest" } as const;

/**
 * Puts a just-uploaded document into its owner's open batch for `audience`, opening one (and
 * queueing its email for the end of the window) when there is none or the open one is past its
 * time. Runs in the upload's transaction, which already holds the owner's row (the quota lock), so
 * one client's uploads take their turn here.
 */
export async function addToUploadNotice(
  tx: Transaction<Database>,
  jobs: Jobs,
  upload: { ownerId: string; documentId: string; audience: NoticeAudience; now: Date },
): Promise<void> {
  const { ownerId, audience, now } = upload;
  // Locked, so the email job closing it waits for this upload to commit (and then lists it).
  let notice = await tx
    .selectFrom("upload_notices")
    .select(["id", "due_at"])
    .where("user_id", "=", ownerId)
    .where("audience", "=", audience)
    .where("closed_at", "is", null)
    .forUpdate()
    .executeTakeFirst();
  if (notice && notice.due_at <= now) {
    // Its window is over though its email has not run yet: the email takes what it holds, this upload starts the next one.
    await closeNotice(tx, notice.id, now);
    notice = undefined;
  }
  if (!notice) {
    const dueAt = new Date(now.getTime() + NOTICE_WINDOW_MS[audience]);
    notice = await tx
      .insertInto("upload_notices")
      .values({ user_id: ownerId, audience, opened_at: now, due_at: dueAt })
      .returning(["id", "due_at"])
      .executeTakeFirstOrThrow();
    await jobs.send("email", { kind: MAIL_KIND[audience], noticeId: notice.id }, { tx, startAfter: dueAt });
  }
  await tx.insertInto("upload_notice_documents").values({ notice_id: notice.id, document_id: upload.documentId }).execute();
}

async function closeNotice(db: Db, noticeId: string, now: Date) {
  return db
    .updateTable("upload_notices")
    .set((eb) => ({ closed_at: eb.fn.coalesce("closed_at", eb.val(now)) }))
    .where("id", "=", noticeId)
    .returning("user_id")
    .executeTakeFirst();
}

export type NoticedDocument = { original_filename: string; folder_id: string | null; upload_date: Date };

/**
 * Closes the batch (nothing joins it any more; already closed on a retry) and reads what it holds:
 * its owner and the documents still live, oldest first. Undefined when the batch is gone (its
 * client was deleted).
 */
export async function takeNotice(db: Db, noticeId: string, now: Date): Promise<{ ownerId: string; documents: NoticedDocument[] } | undefined> {
  const notice = await closeNotice(db, noticeId, now);
  if (!notice) return undefined;
  const documents = await db
    .selectFrom("upload_notice_documents")
    .innerJoin("documents", "documents.id", "upload_notice_documents.document_id")
    .select(["documents.original_filename", "documents.folder_id", "documents.upload_date"])
    .where("upload_notice_documents.notice_id", "=", noticeId)
    .where("documents.deleted_at", "is", null)
    .orderBy("documents.upload_date")
    .orderBy("documents.id")
    .execute();
  return { ownerId: notice.user_id, documents };
}

/** Closed batches are kept as long as sent-mail records, then swept (jobs/sweeps.ts). */
export async function deleteClosedNotices(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom("upload_notices").where("closed_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

const DOCUMENT_NAMES_IN_EMAILS = "include_document_names_in_emails";

/** The firm's setting "Include document names in emails" (on unless turned off). */
export async function documentNamesInEmails(db: Db): Promise<boolean> {
  const row = await db.selectFrom("firm_settings").select("value").where("key", "=", DOCUMENT_NAMES_IN_EMAILS).executeTakeFirst();
  return row?.value !== "false";
}

export async function setDocumentNamesInEmails(db: Db, include: boolean, now: Date): Promise<void> {
  const value = String(include);
  await db
    .insertInto("firm_settings")
    .values({ key: DOCUMENT_NAMES_IN_EMAILS, value, updated_at: now })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
    .execute();
}
