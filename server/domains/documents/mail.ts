// The two emails about a batch of uploads (upload-notices.ts), written when their job runs: the
// client's "documents waiting" after the firm shared some, and the firm's digest of what a client
// uploaded. Neither carries a document, only a link to sign in; document names and folders appear
// only while the firm's setting allows them (firm_settings, include_document_names_in_emails).
import type { Outgoing } from "../../mail/outgoing.ts";
import { composeEmail, oneLine } from "../../mail/compose.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { firmContactEmail, firmName } from "../site/service.ts";
import { accountMailRecipients } from "../accounts/service.ts";
import { listFolderNames, type NoticedDocument } from "./queries.ts";
import { documentNamesInEmails, takeNotice } from "./upload-notices.ts";

const ROOT_FOLDER = "Documents (root)";

function countOf(n: number): string {
  return n === 1 ? "1 document" : `${n} documents`;
}

/** Each document as a detail line: its name, and the folder it is in. */
async function documentLines(deps: AppDeps, documents: NoticedDocument[]): Promise<Array<[string, string]>> {
  const folderIds = [...new Set(documents.map((d) => d.folder_id).filter((id): id is string => id !== null))];
  const folders = folderIds.length ? new Map((await listFolderNames(deps.db, folderIds)).map((f) => [f.id, f.name])) : new Map<string, string>();
  return documents.map((d) => [d.original_filename, d.folder_id ? `in ${folders.get(d.folder_id) ?? ROOT_FOLDER}` : `in ${ROOT_FOLDER}`]);
}

/** To the client, when the firm's batch of uploads closes: documents are waiting (documents/upload-notices.ts). */
export type DocumentsSharedJob = { noticeId: string };

/** To the client: the firm shared documents with them (what the batch holds still, nothing if it was all taken back). */
export async function documentsSharedMail(deps: AppDeps, job: DocumentsSharedJob): Promise<Outgoing | null> {
  const notice = await takeNotice(deps.db, job.noticeId, deps.now());
  if (!notice || notice.documents.length === 0) return null;
  const client = await accountMailRecipients(deps.db, notice.accountId);
  if (!client) return null;
  const [firm, withNames] = await Promise.all([firmName(deps), documentNamesInEmails(deps.db)]);
  const count = countOf(notice.documents.length);
  const body = composeEmail({
    firmName: firm,
    heading: "New documents from your firm",
    paragraphs: [
      client.hello,
      `${firm} shared ${count} with you in the client portal.`,
      "For your security the documents are not attached to this email: sign in to the portal to view and download them.",
    ],
    details: withNames ? await documentLines(deps, notice.documents) : [],
    action: { label: "Open the client portal", url: new URL("/dashboard", deps.config.publicUrl).toString() },
  });
  const waiting = notice.documents.length === 1 ? "A document is waiting for you" : `${count} are waiting for you`;
  return { message: { to: client.to, subject: `${waiting} - ${oneLine(firm)}`, ...body } };
}

/** To the firm, when a client's batch of uploads closes: what they uploaded. */
export type UploadDigestJob = { noticeId: string };

/** To the firm: what a client uploaded in the last window. */
export async function uploadDigestMail(deps: AppDeps, job: UploadDigestJob): Promise<Outgoing | null> {
  const notice = await takeNotice(deps.db, job.noticeId, deps.now());
  if (!notice || notice.documents.length === 0) return null;
  const client = await accountMailRecipients(deps.db, notice.accountId);
  if (!client) return null;
  const [firm, to, withNames] = await Promise.all([firmName(deps), firmContactEmail(deps), documentNamesInEmails(deps.db)]);
  const count = countOf(notice.documents.length);
  const body = composeEmail({
    firmName: firm,
    heading: "New uploads from a client",
    paragraphs: [`${client.name} uploaded ${count} to the client portal.`],
    details: [["Client", client.name], ["Email", client.email], ...(withNames ? await documentLines(deps, notice.documents) : [])],
    action: { label: "Open the client's page", url: new URL(`/admin/users/${client.id}`, deps.config.publicUrl).toString() },
  });
  return { message: { to, subject: `${oneLine(client.name, 80)} uploaded ${count}`, replyTo: client.email, ...body } };
}
