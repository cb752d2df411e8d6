// A client account's complete export (docs/safeguards.md, "Export"): one ZIP, streamed by the REST
// layer like a folder's (server/rest/folder-archive.ts), holding every live document under its
// folder's path, the account's messages, requests, appointments, organizers and signature requests
// as JSON and as CSV, and a README.txt saying what each file is. Each export is in the trail.
import { TRPCError } from "@trpc/server";
import type { ClientContext, FirmContext } from "../../trpc/context.ts";
import { accountExistsForFirm, findAccountName } from "../accounts/queries.ts";
import { ACCOUNT_NOT_FOUND } from "../accounts/service.ts";
import { accountClient, recordActivity } from "../activity/record.ts";
import { csvLine } from "../csv-lines.ts";
import type { Db } from "../../db/types.ts";
import { accountArchiveEntries, type ArchiveEntry, type ArchivePlan, safeSegment } from "../documents/archive.ts";
import { organizersForExport } from "../organizers/exports.ts";
import { signaturesForExport } from "../signatures/firm-service.ts";
import { exportAppointments, exportMessageAttachments, exportMessages, exportRequestItems, exportRequests } from "./queries.ts";

const DOCUMENTS_DIRECTORY = "documents/";

/** The caller's current account. */
export function planOwnExport(ctx: ClientContext): Promise<ArchivePlan> {
  return planExport(ctx, ctx.account, { signerId: ctx.user.id });
}

/** An account the firm person reaches (firm-scope.ts); any other is the same 404 as a missing one. */
export async function planFirmExport(ctx: FirmContext, input: { id: string }): Promise<ArchivePlan> {
  const account = (await accountExistsForFirm(ctx.db, ctx.firmScope, input.id)) ? await findAccountName(ctx.db, input.id) : undefined;
  if (!account) throw new TRPCError({ code: "NOT_FOUND", message: ACCOUNT_NOT_FOUND });
  return planExport(ctx, account, { signerId: null });
}

/**
 * `reader.signerId`: the client's export (organizers and signature requests as the client's own
 * pages show them: sensitive answers masked, the requests they sign on); null for the firm's.
 */
async function planExport(
  ctx: (ClientContext | FirmContext) & { db: Db },
  account: { id: string; name: string },
  reader: { signerId: string | null },
): Promise<ArchivePlan> {
  const now = ctx.now();
  const [documents, messages, attachments, requests, items, appointments, organizers, signatures] = await Promise.all([
    accountArchiveEntries(ctx.db, account.id, reader.signerId, null, now, DOCUMENTS_DIRECTORY),
    exportMessages(ctx.db, account.id, reader.signerId),
    exportMessageAttachments(ctx.db, account.id, reader.signerId),
    exportRequests(ctx.db, account.id),
    exportRequestItems(ctx.db, account.id),
    exportAppointments(ctx.db, account.id),
    organizersForExport(ctx, account.id, reader.signerId ? "client" : "firm"),
    signaturesForExport(ctx.db, account.id, reader.signerId),
  ]);

  const attachmentsOf = groupBy(attachments, (a) => a.message_id);
  const messageRows = messages.map((m) => ({
    id: m.id,
    sent_at: m.created_at.toISOString(),
    from: m.sender_role === "admin" ? "firm" : "client",
    sender_name: m.sender_name,
    text: m.text,
    attachments: (attachmentsOf.get(m.id) ?? []).map((a) => ({ document_id: a.document_id, filename: a.original_filename })),
  }));
  const itemsOf = groupBy(items, (i) => i.request_id);
  const requestRows = requests.map((r) => ({
    id: r.id,
    title: r.title,
    description: r.description,
    status: r.status,
    due_date: r.due_date,
    folder: r.folder_name,
    firm_comment: r.comment,
    created_at: r.created_at.toISOString(),
    submitted_at: r.submitted_at?.toISOString() ?? null,
    done_at: r.done_at?.toISOString() ?? null,
    items: (itemsOf.get(r.id) ?? []).map((i) => ({ title: i.title, status: i.status, done_at: i.done_at?.toISOString() ?? null })),
  }));
  const appointmentRows = appointments.map((a) => ({
    id: a.id,
    title: a.title,
    description: a.description,
    starts_at: a.appointment_date.toISOString(),
    ends_at: a.ends_at?.toISOString() ?? null,
    status: a.status,
    meeting_type: a.meeting_type,
    location: a.location,
    created_at: a.created_at.toISOString(),
  }));

  const file = (path: string, content: string): ArchiveEntry => ({ path, storage_key: null, content, date: now });
  const entries: ArchiveEntry[] = [
    file("README.txt", readme(account.name, now, { documents: documents.documents, messages: messageRows.length, client: reader.signerId !== null })),
    { path: DOCUMENTS_DIRECTORY, storage_key: null, date: now },
    ...documents.entries,
    file("messages.json", json(messageRows)),
    file(
      "messages.csv",
      csv(
        ["id", "sent_at", "from", "sender_name", "text", "attachments"],
        messageRows.map((m) => [m.id, m.sent_at, m.from, m.sender_name, m.text, m.attachments.map((a) => a.filename).join("; ")]),
      ),
    ),
    file("requests.json", json(requestRows)),
    file(
      "requests.csv",
      csv(
        ["id", "title", "description", "status", "due_date", "folder", "firm_comment", "created_at", "submitted_at", "done_at", "items"],
        requestRows.map((r) => [
          r.id,
          r.title,
          r.description,
          r.status,
          r.due_date,
          r.folder,
          r.firm_comment,
          r.created_at,
          r.submitted_at,
          r.done_at,
          r.items.map((i) => `${i.title} (${i.status})`).join("; "),
        ]),
      ),
    ),
    file("appointments.json", json(appointmentRows)),
    file(
      "appointments.csv",
      csv(
        ["id", "title", "description", "starts_at", "ends_at", "status", "meeting_type", "location", "created_at"],
        appointmentRows.map((a) => [a.id, a.title, a.description, a.starts_at, a.ends_at, a.status, a.meeting_type, a.location, a.created_at]),
      ),
    ),
    file("organizers.json", json(organizers)),
    file(
      "organizers.csv",
      csv(
        ["organizer_id", "organizer", "status", "submitted_at", "question_id", "question", "type", "sensitive", "answer", "files"],
        organizers.flatMap((o) =>
          o.questions.map((q) => [
            o.id,
            o.title,
            o.status,
            o.submitted_at,
            q.id,
            q.label,
            q.type,
            q.sensitive ? "yes" : "no",
            q.answer_text,
            q.files.join("; "),
          ]),
        ),
      ),
    ),
    file("signatures.json", json(signatures)),
    file(
      "signatures.csv",
      csv(
        [
          "request_id",
          "title",
          "kind",
          "request_status",
          "created_at",
          "completed_at",
          "signer",
          "name",
          "email",
          "signer_status",
          "viewed_at",
          "signed_at",
          "declined_at",
          "decline_reason",
        ],
        signatures.flatMap((r) =>
          r.signers.map((s) => [
            r.id,
            r.title,
            r.kind,
            r.status,
            r.created_at,
            r.completed_at,
            String(s.index + 1),
            s.name,
            s.email,
            s.status,
            s.viewed_at,
            s.signed_at,
            s.declined_at,
            s.decline_reason,
          ]),
        ),
      ),
    ),
    file(
      "signature-events.csv",
      csv(
        ["request_id", "title", "at", "action", "signer", "actor", "detail"],
        signatures.flatMap((r) =>
          r.events.map((e) => [r.id, r.title, e.at, e.action, e.signer === null ? null : String(e.signer + 1), e.actor, JSON.stringify(e.detail)]),
        ),
      ),
    ),
  ];
  await recordActivity(ctx.db, ctx, {
    action: "account.export",
    client: accountClient(account),
    detail: {
      documents: documents.documents,
      messages: messageRows.length,
      requests: requestRows.length,
      appointments: appointmentRows.length,
      organizers: organizers.length,
      signatures: signatures.length,
    },
  });
  return { filename: `${safeSegment(account.name)} export ${now.toISOString().slice(0, 10)}.zip`, entries };
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row)) ?? [];
    group.push(row);
    groups.set(key(row), group);
  }
  return groups;
}

function json(rows: unknown): string {
  return `${JSON.stringify(rows, null, 2)}\n`;
}

function csv(header: readonly string[], rows: readonly (readonly (string | null)[])[]): string {
  return [header, ...rows].map((row) => csvLine(row.map((cell) => cell ?? ""))).join("");
}

function readme(accountName: string, now: Date, counts: { documents: number; messages: number; client: boolean }): string {
  return [
    `Export of the client account "${accountName}"`,
    `Made ${now.toISOString()} (UTC) by the client portal.`,
    "",
    "What each file is:",
    "",
    `documents/         Every document of the account (${counts.documents}), in its folders, as uploaded.`,
    "                   Documents in the trash are not included.",
    `messages.json      The conversation with the firm (${counts.messages} messages), oldest first: when each was`,
    "                   sent, by whom (client or firm), its text and the names of its attachments",
    "                   (the attachments themselves are in documents/).",
    'messages.csv       The same messages as a spreadsheet; attachments are named, separated by "; ".',
    "requests.json      The firm's document requests: title, description, status, due date, the folder",
    "                   uploads go to, the firm's comment, dates, and each checklist item with its status.",
    'requests.csv       The same requests as a spreadsheet; items as "title (status)", separated by "; ".',
    "appointments.json  Every appointment: title, description, start and end (UTC), status, meeting type",
    "                   and location.",
    "appointments.csv   The same appointments as a spreadsheet.",
    counts.client
      ? "organizers.json    Each tax organizer sent to you: its status and dates, and every question with your answer\n" +
        "                   and the names of the files you gave it (the files are in documents/). Sensitive answers\n" +
        "                   (bank and identity numbers) are masked, as on your organizer's page."
      : "organizers.json    Each tax organizer of the account (drafts not yet sent too): its status and dates, and every\n" +
        "                   question with its answer, sensitive ones (bank and identity numbers) in full, and the names\n" +
        "                   of the files given to it (the files are in documents/).",
    "organizers.csv     The same answers as a spreadsheet, one row per organizer and question.",
    counts.client
      ? "signatures.json    Each signature request you sign on: its status, each signer (status, when they viewed,\n" +
        "                   agreed to sign electronically, proved who they are, signed or declined) and its audit events."
      : "signatures.json    Each signature request of the account: its status, each signer (status, when they viewed,\n" +
        "                   agreed to sign electronically, proved who they are, signed or declined) and its audit events.",
    '                   The sealed PDFs are in documents/, in the "Signed documents" folder.',
    "signatures.csv     The same requests as a spreadsheet, one row per request and signer.",
    "signature-events.csv  Every request's audit events (what happened, when, by whom), oldest first.",
    "",
    "Dates and times are ISO 8601 in UTC. In the CSV files a cell starting with = + - or @ has a",
    "leading apostrophe, so that a spreadsheet shows it instead of running it as a formula.",
    "",
  ].join("\r\n");
}
