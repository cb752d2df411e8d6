// Uploads are told in batches, by one mechanism for both directions (docs/decisions.md, "Documents
// from the firm and upload notifications"): the firm's uploads to the client (at most one email per
// 5 minutes) and the client's uploads to the firm (a digest per 10 minutes). The first upload of a
// batch opens an upload_notices row and queues its email job for the end of the window, in the
// upload's own transaction; later uploads in the window join that row. The email job closes the
// batch when it runs and lists what it holds then, so an upload after that opens the next batch.
import type { Transaction } from "kysely";
import type { Database, Db } from "../../db/types.ts";
import type { Jobs } from "../../jobs/queue.ts";
import {
  closeUploadNotice,
  findDocumentNamesSetting,
  findOpenUploadNotice,
  insertUploadNotice,
  insertUploadNoticeDocument,
  listNoticedDocuments,
  type NoticeAudience,
  type NoticedDocument,
  upsertDocumentNamesSetting,
} from "./job-queries.ts";

/** How long a batch stays open after its first upload. */
const NOTICE_WINDOW_MS: Record<NoticeAudience, number> = {
  client: 5 * 60 * 1000,
  firm: 10 * 60 * 1000,
};

const MAIL_KIND = { client: "documents-shared", firm: "upload-digest" } as const;

/**
 * Puts a just-uploaded document into its account's open batch for `audience`, opening one (and
 * queueing its email for the end of the window) when there is none or the open one is past its
 * time. Runs in the upload's transaction, which already holds the account's row (the quota lock), so
 * one account's uploads take their turn here.
 */
export async function addToUploadNotice(
  tx: Transaction<Database>,
  jobs: Jobs,
  upload: { accountId: string; documentId: string; audience: NoticeAudience; now: Date },
): Promise<void> {
  const { accountId, audience, now } = upload;
  // Locked, so the email job closing it waits for this upload to commit (and then lists it).
  let notice = await findOpenUploadNotice(tx, accountId, audience);
  if (notice && notice.due_at <= now) {
    // Its window is over though its email has not run yet: the email takes what it holds, this upload starts the next one.
    await closeUploadNotice(tx, notice.id, now);
    notice = undefined;
  }
  if (!notice) {
    const dueAt = new Date(now.getTime() + NOTICE_WINDOW_MS[audience]);
    notice = await insertUploadNotice(tx, { account_id: accountId, audience, opened_at: now, due_at: dueAt });
    await jobs.send("email", { kind: MAIL_KIND[audience], noticeId: notice.id }, { tx, startAfter: dueAt });
  }
  await insertUploadNoticeDocument(tx, notice.id, upload.documentId);
}

/**
 * Closes the batch (nothing joins it any more; already closed on a retry) and reads what it holds:
 * its owner and the documents still live, oldest first. Undefined when the batch is gone (its
 * client was deleted).
 */
export async function takeNotice(db: Db, noticeId: string, now: Date): Promise<{ accountId: string; documents: NoticedDocument[] } | undefined> {
  const notice = await closeUploadNotice(db, noticeId, now);
  if (!notice) return undefined;
  return { accountId: notice.account_id, documents: await listNoticedDocuments(db, noticeId) };
}

/** The firm's setting "Include document names in emails" (on unless turned off). */
export async function documentNamesInEmails(db: Db): Promise<boolean> {
  return (await findDocumentNamesSetting(db)) !== "false";
}

export async function setDocumentNamesInEmails(db: Db, include: boolean, now: Date): Promise<void> {
  await upsertDocumentNamesSetting(db, String(include), now);
}
