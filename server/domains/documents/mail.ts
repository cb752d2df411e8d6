// The two emails about a batch of uploads (upload-notices.ts), written when their job runs: the
// client's "documents waiting" after the firm shared some, and the firm's digest of what a client
// uploaded. Neither carries a document, only a link to sign in; document names and folders appear
// only while the firm's setting allows them (firm_settings, include_document_names_in_emails).
import type { Outgoing } from "../../mail/outgoing.ts";
import { composeEmail, oneLine } from "../../mail/compose.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { firmContactEmail, firmName } from "../site/service.ts";
import { accountMailRecipients } from "../accounts/service.ts";
import type { NoticedDocument } from "./job-queries.ts";
import { listFolderNames } from "./queries.ts";
import { documentNamesInEmails, takeNotice } from "./upload-notices.ts";

const ROOT_FOLDER = "Documents (root)";

function countOf(n: number): string {
  return n === 1 ? "1 document" : `${n} documents`;
}

/** Each document as a detail line: its name, and the folder it is in. */
async function documentLines(deps: AppDeps, documents: NoticedDocument[], byWhom = false): Promise<Array<[string, string]>> {
  const folderIds = [...new Set(documents.map((d) => d.folder_id).filter((id): id is string => id !== null))];
  const folders = folderIds.length ? new Map((await listFolderNames(deps.db, folderIds)).map((f) => [f.id, f.name])) : new Map<string, string>();
  return documents.map((d) => {
    const where = d.folder_id ? `in ${folders.get(d.folder_id) ?? ROOT_FOLDER}` : `in ${ROOT_FOLDER}`;
    return [d.original_filename, byWhom && d.uploaded_by_name ? `${where}, by ${d.uploaded_by_name}` : where];
  });
}

/** "A", "A and B", "A, B and C" */
function namesOf(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
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
  // A household's batch may hold several people's files: each is named as its uploader (issue 48),
  // not all credited to the account's first person.
  const uploaders = [...new Set(notice.documents.flatMap((d) => (d.uploaded_by_name ? [d.uploaded_by_name] : [])))];
  const who = uploaders.length > 0 ? namesOf(uploaders) : client.name;
  const body = composeEmail({
    firmName: firm,
    heading: "New uploads from a client",
    paragraphs: [`${who} uploaded ${count} to the client portal.`],
    details: [
      ["Client", client.name],
      ["Email", client.email],
      ...(withNames ? await documentLines(deps, notice.documents, uploaders.length > 1) : []),
    ],
    action: { label: "Open the client's page", url: new URL(`/admin/users/${client.id}`, deps.config.publicUrl).toString() },
  });
  return { message: { to, subject: `${oneLine(who, 80)} uploaded ${count}`, replyTo: client.email, ...body } };
}
