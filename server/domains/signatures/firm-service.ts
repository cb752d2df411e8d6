// The firm's side of signatures (docs/decisions.md, "Signatures"): a request sent, read, listed, voided or
// reminded, an in-person identity check recorded, and an account's requests for its export.
import { TRPCError } from "@trpc/server";
import { SIGNER_REMINDED_RECENTLY, SIGNER_REMINDER_INTERVAL_HOURS, tooManyRequests } from "../../auth/rate-limit.ts";
import type { Db } from "../../db/types.ts";
import type { FirmContext } from "../../trpc/context.ts";
import { chargedIfMailing } from "../../trpc/firm-mail-cap.ts";
import { firmDisplayNames } from "../activity/queries.ts";
import { accountLabel } from "../activity/record.ts";
import { ACCOUNT_NOT_FOUND, accountForFirm } from "../accounts/service.ts";
import { localDate } from "../appointments/firm-clock.ts";
import {
  claimSignerReminders,
  findAccountDocument,
  shareHeldDocument,
  findRequestForFirm,
  findUserLabel,
  insertFields,
  insertSignatureRequest,
  insertSigners,
  listAccountInvitees,
  listAccountPeople,
  listAccountRequestsForExport,
  listEvents,
  listFields,
  listRequestsForFirm,
  listSigners,
  lockRequestForFirm,
  type RequestRow,
  retainDocuments,
  updateRequest,
  updateSigner,
} from "./queries.ts";
import {
  type AdminSignatureListItem,
  type AdminSignatureRequest,
  type CreateSignatureRequestInput,
  DOCUMENT_NOT_IN_ACCOUNT,
  DOCUMENT_NOT_PDF,
  DUPLICATE_SIGNER,
  FIELD_PAGE_MISSING,
  FIELD_SIGNER_UNKNOWN,
  REMIND_NOTHING,
  REMIND_NOT_SIGNED_UP,
  REQUEST_CLOSED,
  SIGNATURE_REQUEST_NOT_FOUND,
  type SignatureStatus,
  SIGNER_DONE,
  SIGNER_INVITATION_CLOSED,
  SIGNER_NOT_FOUND,
  SIGNER_NOT_IN_ACCOUNT,
  SIGNER_WITHOUT_SIGNATURE,
} from "./schemas.ts";
import { pdfPageCount, sha256Hex } from "./seal.ts";
import { baseOf, hasTurn, isOpen, readAll, record, releaseOriginal, remoteSigningNote, retentionEnd, toField } from "./common.ts";

const DUE_DATE_PASSED = "Due date must be today or later";
const PDF_UNREADABLE = "The PDF could not be read (it is damaged or password-protected)";

export async function createSignatureRequest(ctx: FirmContext, input: CreateSignatureRequestInput): Promise<AdminSignatureRequest> {
  await ctx.rateLimits.consumeFirmMailToClients(ctx.user.id);
  const accountId = await accountForFirm(ctx.db, ctx.firmScope, { account_id: input.account_id }, ACCOUNT_NOT_FOUND);
  const today = localDate(ctx.now(), ctx.config.firmTimeZone);
  if (input.due_date !== null && input.due_date < today) throw new TRPCError({ code: "BAD_REQUEST", message: DUE_DATE_PASSED });
  const document = await findAccountDocument(ctx.db, accountId, input.document_id);
  if (!document) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_IN_ACCOUNT });
  if (document.content_type !== "application/pdf") throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: DOCUMENT_NOT_PDF });
  const keys = input.signers.map((s) => s.user_id ?? `invitation:${s.invitation_id}`);
  if (new Set(keys).size !== keys.length) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: DUPLICATE_SIGNER });
  const userIds = input.signers.flatMap((s) => (s.user_id ? [s.user_id] : []));
  const invitationIds = input.signers.flatMap((s) => (s.invitation_id ? [s.invitation_id] : []));
  const [people, invitees] = await Promise.all([
    listAccountPeople(ctx.db, accountId, userIds),
    listAccountInvitees(ctx.db, accountId, invitationIds),
  ]);
  // A person invited and not signed up yet holds a slot by their invitation (docs/decisions.md,
  // "Prepared for invited people"): no user until they accept it with the invited address.
  const signers = input.signers.map((s) => {
    if (s.user_id) {
      const person = people.find((p) => p.id === s.user_id);
      return person && { user_id: person.id, invitation_id: null, name: person.name || accountLabel(person), email: person.email };
    }
    const invitee = invitees.find((i) => i.id === s.invitation_id);
    return invitee && { user_id: null, invitation_id: invitee.id, name: invitee.name, email: invitee.email };
  });
  if (signers.some((p, i) => !p && input.signers[i]!.user_id)) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: SIGNER_NOT_IN_ACCOUNT });
  if (signers.some((p) => !p)) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: SIGNER_INVITATION_CLOSED });
  if (input.fields.some((f) => f.signer >= signers.length)) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: FIELD_SIGNER_UNKNOWN });
  const unsigned = signers.findIndex((_, index) => !input.fields.some((f) => f.signer === index && f.type === "signature"));
  if (unsigned >= 0) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: `${SIGNER_WITHOUT_SIGNATURE} (signer ${unsigned} has none)` });
  const original = await readAll(ctx.storage, document.storage_key);
  const pages = await pdfPageCount(original);
  if (pages === null) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: PDF_UNREADABLE });
  const beyond = input.fields.find((f) => f.page > pages);
  if (beyond) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: `${FIELD_PAGE_MISSING} (page ${beyond.page}; it has ${pages})` });
  const now = ctx.now();
  const id = await ctx.db.transaction().execute(async (tx) => {
    const { id } = await insertSignatureRequest(tx, {
      account_id: accountId,
      document_id: document.id,
      title: input.title,
      kind: input.kind,
      signing_order: input.order,
      due_date: input.due_date,
      message: input.message,
      created_by: ctx.user.id,
      original_sha256: sha256Hex(original),
      created_at: now,
      updated_at: now,
    });
    await insertSigners(
      tx,
      signers.map((signer, position) => ({ request_id: id, position, ...signer! })),
    );
    await insertFields(
      tx,
      input.fields.map((f, ordinal) => ({
        request_id: id,
        signer_position: f.signer,
        ordinal,
        type: f.type,
        page: f.page,
        x: f.x,
        y: f.y,
        width: f.width,
        height: f.height,
        required: f.required,
      })),
    );
    // The original stays as it is while the request is open (and until retentionEnd once sealed).
    await retainDocuments(tx, [document.id], retentionEnd(now));
    await shareHeldDocument(tx, document.id);
    const first = input.order === "parallel" ? signers.map((_, i) => i) : [0];
    for (const position of first) await ctx.jobs.send("email", { kind: "signature-turn", requestId: id, position }, { tx });
    const accountName = (await tx.selectFrom("accounts").select("name").where("id", "=", accountId).executeTakeFirstOrThrow()).name;
    await record(tx, ctx, { id, account_id: accountId, account_name: accountName, title: input.title }, "signature.create", null, {
      kind: input.kind,
      document: document.original_filename,
      signers: signers.length,
      order: input.order,
    });
    return id;
  });
  return adminSignatureRequest(ctx, id);
}

export async function adminSignatureRequest(ctx: FirmContext, id: string): Promise<AdminSignatureRequest> {
  const row = await findRequestForFirm(ctx.db, ctx.firmScope, id);
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: SIGNATURE_REQUEST_NOT_FOUND });
  const [signers, fields, events] = await Promise.all([listSigners(ctx.db, [id]), listFields(ctx.db, id), listEvents(ctx.db, [id])]);
  // The trail names people by their names now; the export (below) keeps the labels as recorded.
  const names = await firmDisplayNames(
    ctx.db,
    events.map((e) => e.actor_id),
  );
  return {
    ...baseOf(row),
    account_name: row.account_name,
    void_reason: row.void_reason,
    remote_signing_note: isOpen(row) ? remoteSigningNote(ctx, row.kind) : null,
    signers: signers.map((s) => ({
      index: s.position,
      user_id: s.user_id,
      name: s.name,
      email: s.email,
      status: s.status,
      viewed_at: s.viewed_at,
      consented_at: s.consented_at,
      identity_method: s.identity_method,
      identity_result: s.identity_result,
      identity_checked_at: s.identity_checked_at,
      signed_at: s.signed_at,
      declined_at: s.declined_at,
      decline_reason: s.decline_reason,
      awaiting_sign_up: s.user_id === null && s.invitation_id !== null,
    })),
    fields: fields.map(toField),
    events: events.map((e) => ({
      at: e.occurred_at,
      action: e.action,
      signer: e.signer_position,
      actor: (e.actor_id && names.get(e.actor_id)?.display) || e.actor_label,
      detail: e.detail,
    })),
  };
}

export type SignatureExport = {
  id: string;
  title: string;
  kind: string;
  order: string;
  status: SignatureStatus;
  due_date: string | null;
  created_at: string;
  completed_at: string | null;
  void_reason: string | null;
  document: string | null;
  sealed_document: string | null;
  signers: Array<{
    index: number;
    name: string;
    email: string;
    status: string;
    viewed_at: string | null;
    consented_at: string | null;
    identity_method: string | null;
    identity_checked_at: string | null;
    signed_at: string | null;
    declined_at: string | null;
    decline_reason: string | null;
  }>;
  events: Array<{ at: string; action: string; signer: number | null; actor: string; detail: Record<string, unknown> }>;
};

/**
 * An account's signature requests for its export (account-export/service.ts): each with its signers,
 * status and audit events; the sealed PDFs are among the account's documents. The firm's export has
 * every request; the client's those the client signs on, as their own pages show (`signerId`).
 */
export async function signaturesForExport(db: Db, accountId: string, signerId: string | null): Promise<SignatureExport[]> {
  const rows = await listAccountRequestsForExport(db, accountId, signerId);
  const ids = rows.map((r) => r.id);
  const [signers, events] = await Promise.all([listSigners(db, ids), listEvents(db, ids)]);
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    kind: row.kind,
    order: row.signing_order,
    status: row.status,
    due_date: row.due_date,
    created_at: row.created_at.toISOString(),
    completed_at: iso(row.completed_at),
    void_reason: row.void_reason,
    document: row.document_name,
    sealed_document: row.sealed_document_name,
    signers: signers
      .filter((s) => s.request_id === row.id)
      .map((s) => ({
        index: s.position,
        name: s.name,
        email: s.email,
        status: s.status,
        viewed_at: iso(s.viewed_at),
        consented_at: iso(s.consented_at),
        identity_method: s.identity_method,
        identity_checked_at: iso(s.identity_checked_at),
        signed_at: iso(s.signed_at),
        declined_at: iso(s.declined_at),
        decline_reason: s.decline_reason,
      })),
    events: events
      .filter((e) => e.request_id === row.id)
      .map((e) => ({
        at: e.occurred_at.toISOString(),
        action: e.action,
        signer: e.signer_position,
        actor: e.actor_label,
        detail: e.detail,
      })),
  }));
}

export async function listSignatureRequestsForFirm(
  ctx: FirmContext,
  input: { account_id?: string; status?: SignatureStatus },
): Promise<AdminSignatureListItem[]> {
  const accountId = input.account_id ? await accountForFirm(ctx.db, ctx.firmScope, { account_id: input.account_id }, ACCOUNT_NOT_FOUND) : undefined;
  const rows = await listRequestsForFirm(ctx.db, ctx.firmScope, { accountId, status: input.status });
  const signers = await listSigners(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    ...baseOf(row),
    account_name: row.account_name,
    signers: signers
      .filter((s) => s.request_id === row.id)
      .map((s) => ({ index: s.position, name: s.name, status: s.status, signed_at: s.signed_at })),
  }));
}

async function lockOpenForFirm(tx: Db, ctx: FirmContext, id: string): Promise<RequestRow> {
  const row = await lockRequestForFirm(tx, ctx.firmScope, id);
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: SIGNATURE_REQUEST_NOT_FOUND });
  if (!isOpen(row)) throw new TRPCError({ code: "CONFLICT", message: REQUEST_CLOSED });
  return row;
}

export async function voidSignatureRequest(ctx: FirmContext, input: { id: string; reason: string }): Promise<AdminSignatureRequest> {
  await ctx.rateLimits.consumeFirmMailToClients(ctx.user.id);
  await ctx.db.transaction().execute(async (tx) => {
    const row = await lockOpenForFirm(tx, ctx, input.id);
    await updateRequest(tx, row.id, { status: "voided", void_reason: input.reason || null, updated_at: ctx.now() });
    await releaseOriginal(tx, row.document_id);
    await ctx.jobs.send("email", { kind: "signature-voided", requestId: row.id }, { tx });
    await record(tx, ctx, row, "signature.void", null, input.reason ? { reason: input.reason } : {});
  });
  return adminSignatureRequest(ctx, input.id);
}

/**
 * Mails the signers whose turn it is, each at most once in SIGNER_REMINDER_INTERVAL_HOURS; when all of
 * them were reminded within it, 429 with when the first may be reminded again (docs/security.md, Round 4).
 * A slot held for someone invited and not signed up gets no mail (mail.ts), so it is neither stamped
 * nor counted: the answer's `reminded` is the number of signers mailed (docs/security.md, "Round 4
 * (issue 47): reminders and the mail cap count only mail that goes").
 */
export async function remindSigners(ctx: FirmContext, input: { id: string }): Promise<AdminSignatureRequest & { reminded: number }> {
  // Charged to the firm's mail cap only when a signer is mailed; a refusal gives the point back.
  const reminded = await chargedIfMailing(ctx, true, (mail) =>
    ctx.db.transaction().execute(async (tx) => {
      const row = await lockOpenForFirm(tx, ctx, input.id);
      const signers = await listSigners(tx, [row.id]);
      const waiting = signers.filter((s) => hasTurn(row, signers, s));
      if (waiting.length === 0) throw new TRPCError({ code: "CONFLICT", message: REMIND_NOTHING });
      const mailable = waiting.filter((s) => s.user_id !== null);
      if (mailable.length === 0) throw new TRPCError({ code: "CONFLICT", message: REMIND_NOT_SIGNED_UP });
      const now = ctx.now();
      const interval = SIGNER_REMINDER_INTERVAL_HOURS * 3_600_000;
      const { claimed, lastReminded } = await claimSignerReminders(
        tx,
        row.id,
        mailable.map((s) => s.position),
        now,
        new Date(now.getTime() - interval),
      );
      if (claimed.length === 0) {
        const earliest = Math.min(...lastReminded.map((at) => at.getTime()));
        throw tooManyRequests(SIGNER_REMINDED_RECENTLY, earliest + interval - now.getTime());
      }
      mail.mayMail();
      for (const position of claimed) await ctx.jobs.send("email", { kind: "signature-turn", requestId: row.id, position, reminder: true }, { tx });
      await updateRequest(tx, row.id, { last_reminded_at: now });
      await record(tx, ctx, row, "signature.remind", null, { signers: claimed.map((position) => position + 1) });
      return claimed.length;
    }),
  );
  return { ...(await adminSignatureRequest(ctx, input.id)), reminded };
}

/**
 * The firm saw the signer in person and checked a photo ID (the way to sign a Form 8879 without a
 * KBA provider): the identity check is recorded with the staff member who made it.
 */
export async function recordInPersonCheck(
  ctx: FirmContext,
  input: { id: string; index: number; id_document: string },
): Promise<AdminSignatureRequest> {
  await ctx.db.transaction().execute(async (tx) => {
    const row = await lockOpenForFirm(tx, ctx, input.id);
    const signer = (await listSigners(tx, [row.id])).find((s) => s.position === input.index);
    if (!signer) throw new TRPCError({ code: "NOT_FOUND", message: SIGNER_NOT_FOUND });
    if (signer.status !== "pending") throw new TRPCError({ code: "CONFLICT", message: SIGNER_DONE });
    const staff = await findUserLabel(tx, ctx.user.id);
    const result = `Signed in person; photo ID checked (${input.id_document}) by ${staff?.name || accountLabel(ctx.user)}`;
    await updateSigner(tx, signer.id, {
      identity_method: "in_person",
      identity_result: result,
      identity_checked_at: ctx.now(),
      identity_checked_by: ctx.user.id,
      code_hash: null,
    });
    await record(tx, ctx, row, "signature.in_person", signer.position, { id_document: input.id_document });
  });
  return adminSignatureRequest(ctx, input.id);
}
