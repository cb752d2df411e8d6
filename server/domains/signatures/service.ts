// Signatures (issue 35; docs/decisions.md, "Signatures"). The firm sends one of an account's PDFs to
// some of its people with fields placed on the pages; each signer agrees to the ESIGN disclosure,
// proves who they are (an emailed code or their own second factor; for a remote Form 8879 a KBA
// provider, else the firm records an in-person check of a photo ID), fills their fields and signs.
// The last signature seals the PDF in the same transaction (seal.ts), so a request is completed
// exactly when its sealed file exists. Every step goes to the request's own audit events and to
// the activity trail, with its mail queued in the step's transaction.
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { TRPCError } from "@trpc/server";
import { SIGNER_REMINDED_RECENTLY, SIGNER_REMINDER_INTERVAL_HOURS, tooManyRequests } from "../../auth/rate-limit.ts";
import { useSecondFactor } from "../../auth/second-factor.ts";
import type { Db, IdentityMethod } from "../../db/types.ts";
import { storageWithin } from "../../storage/encrypted-storage.ts";
import type { ObjectStorage } from "../../storage/storage.ts";
import type { AuthedContext, ClientContext, FirmContext } from "../../trpc/context.ts";
import { firmDisplayNames } from "../activity/queries.ts";
import { accountClient, accountLabel, type ActivityAction, recordActivity } from "../activity/record.ts";
import { ACCOUNT_NOT_FOUND, accountForFirm } from "../accounts/service.ts";
import { localDate } from "../appointments/firm-clock.ts";
import { insertDocument, type StoredDocument } from "../documents/queries.ts";
import { cleanFilename } from "../documents/upload.ts";
import { addToInbox } from "../inbox/queries.ts";
import { firmAddress, firmName } from "../site/service.ts";
import { sealingIdentity } from "./certificate.ts";
import { configuredKbaProvider } from "./kba.ts";
import { CODE_MAX_ATTEMPTS, CODE_TTL_MS, hashSignatureCode } from "./mail.ts";
import {
  claimSignerReminders,
  type FieldRow,
  findAccountDocument,
  shareHeldDocument,
  findDocumentById,
  findRequestForFirm,
  findRequestForSigner,
  findUserLabel,
  hasSecondFactor,
  insertConsent,
  insertEvent,
  insertFields,
  insertSignatureRequest,
  isDocumentHeld,
  insertSigners,
  listAccountInvitees,
  listAccountPeople,
  listAccountRequestsForExport,
  listEvents,
  listFields,
  listRequestsForFirm,
  listRequestsForSigner,
  listSigners,
  lockRequestForFirm,
  lockRequestForSigner,
  type RequestRow,
  retainDocuments,
  rootFolderNamed,
  setFieldValue,
  type SignerRow,
  updateRequest,
  updateSigner,
} from "./queries.ts";
import {
  type AdminSignatureListItem,
  type AdminSignatureRequest,
  ALREADY_DECLINED,
  ALREADY_SIGNED,
  type ClientSignatureRequest,
  CODE_TOO_MANY,
  CODE_WRONG,
  CONSENT_FIRST,
  type CreateSignatureRequestInput,
  DISCLOSURE_OUTDATED,
  DOCUMENT_NOT_IN_ACCOUNT,
  DOCUMENT_NOT_PDF,
  DUPLICATE_SIGNER,
  ESIGN_DISCLOSURE,
  FIELD_PAGE_MISSING,
  FIELD_SIGNER_UNKNOWN,
  IDENTITY_FIRST,
  KBA_NEEDED,
  NOT_YOUR_TURN,
  REMIND_NOTHING,
  REQUEST_CLOSED,
  RETENTION_YEARS,
  SIGNATURE_REQUEST_NOT_FOUND,
  type SignatureStatus,
  SIGNER_DONE,
  SIGNER_INVITATION_CLOSED,
  SIGNER_NOT_FOUND,
  SIGNER_NOT_IN_ACCOUNT,
  SIGNER_WITHOUT_SIGNATURE,
  type SignInput,
} from "./schemas.ts";
import { initialsOf, isDrawablePng, pdfPageCount, type SealInput, sealPdf, sha256Hex } from "./seal.ts";

export const SIGNED_FOLDER = "Signed documents";
const DUE_DATE_PASSED = "Due date must be today or later";
const PDF_UNREADABLE = "The PDF could not be read (it is damaged or password-protected)";
const CODE_TOO_SOON = "A code was sent less than a minute ago: check your email, or wait a minute to ask again";
const CODE_RESEND_MS = 60_000;
const DRAWING_UNREADABLE = "The drawn signature is not a PNG image that can be read: draw it again";

type SignatureAction = Extract<
  ActivityAction,
  | "signature.create"
  | "signature.view"
  | "signature.consent"
  | "signature.verify"
  | "signature.sign"
  | "signature.decline"
  | "signature.void"
  | "signature.remind"
  | "signature.in_person"
  | "signature.complete"
>;

const OPEN: readonly SignatureStatus[] = ["sent", "partially_signed"];
const isOpen = (request: { status: SignatureStatus }) => OPEN.includes(request.status);

async function readAll(storage: ObjectStorage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(key)) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** The request's own trail and the activity trail, in the change's transaction. */
async function record(
  tx: Db,
  ctx: AuthedContext,
  request: { id: string; account_id: string; account_name: string; title: string },
  action: SignatureAction,
  signer: number | null,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await insertEvent(tx, {
    request_id: request.id,
    occurred_at: ctx.now(),
    action: action.slice("signature.".length),
    signer_position: signer,
    actor_id: ctx.user.id,
    actor_label: accountLabel(ctx.user),
    detail: JSON.stringify(detail),
    ip: ctx.ip && ctx.ip !== "unknown" ? ctx.ip : null,
    user_agent: ctx.userAgent,
  });
  await recordActivity(tx, ctx, {
    action,
    client: accountClient({ id: request.account_id, name: request.account_name }),
    target: { type: "signature_request", id: request.id },
    detail: { title: request.title, ...(signer !== null ? { signer: signer + 1 } : {}), ...detail },
  });
}

/**
 * The firm's Inbox hears of what a signer did (issue 35), in the same transaction: the latest event
 * of a request is what its unread item says (inbox/queries.ts).
 */
async function tellFirm(
  tx: Db,
  ctx: ClientContext,
  request: { id: string; account_id: string; title: string },
  kind: "signature_viewed" | "signature_signed" | "signature_declined" | "signature_completed",
  detail: Record<string, unknown> = {},
): Promise<void> {
  await addToInbox(tx, {
    kind,
    account_id: request.account_id,
    actor_id: ctx.user.id,
    subject_id: request.id,
    summary: { title: request.title, ...detail },
    at: ctx.now(),
  });
}

/** Form 8879 signed remotely needs a KBA provider (kba.ts); without one, the request says so. */
function remoteSigningNote(ctx: Pick<AuthedContext, "config">, kind: string): string | null {
  return kind === "form_8879" && !configuredKbaProvider(ctx.config) ? KBA_NEEDED : null;
}

/** Whose turn it is: everyone pending in parallel order; in sequential order, the first pending signer. */
function hasTurn(request: { signing_order: string }, signers: SignerRow[], signer: SignerRow): boolean {
  if (signer.status !== "pending") return false;
  if (request.signing_order === "parallel") return true;
  return signers.filter((s) => s.position < signer.position).every((s) => s.status === "signed");
}

function toField(field: FieldRow) {
  const { signer_position, ...rest } = field;
  return { ...rest, signer: signer_position };
}

function baseOf(row: RequestRow) {
  return {
    id: row.id,
    account_id: row.account_id,
    document_id: row.document_id,
    title: row.title,
    kind: row.kind,
    order: row.signing_order,
    status: row.status,
    due_date: row.due_date,
    message: row.message,
    sealed_document_id: row.sealed_document_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
  };
}

function retentionEnd(from: Date): Date {
  const until = new Date(from);
  until.setUTCFullYear(until.getUTCFullYear() + RETENTION_YEARS);
  return until;
}

// ---------------------------------------------------------------------------------------------
// The firm

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
    // The original stays as it is while the request is open (and for RETENTION_YEARS once sealed).
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

/** A request that ended unsigned no longer holds its original, unless another request still does. */
async function releaseOriginal(tx: Db, documentId: string): Promise<void> {
  if (!(await isDocumentHeld(tx, documentId))) await retainDocuments(tx, [documentId], null);
}

/**
 * Mails the signers whose turn it is, each at most once in SIGNER_REMINDER_INTERVAL_HOURS; when all of
 * them were reminded within it, 429 with when the first may be reminded again (docs/security.md, Round 4).
 */
export async function remindSigners(ctx: FirmContext, input: { id: string }): Promise<AdminSignatureRequest> {
  await ctx.rateLimits.consumeFirmMailToClients(ctx.user.id);
  await ctx.db.transaction().execute(async (tx) => {
    const row = await lockOpenForFirm(tx, ctx, input.id);
    const signers = await listSigners(tx, [row.id]);
    const waiting = signers.filter((s) => hasTurn(row, signers, s));
    if (waiting.length === 0) throw new TRPCError({ code: "CONFLICT", message: REMIND_NOTHING });
    const now = ctx.now();
    const interval = SIGNER_REMINDER_INTERVAL_HOURS * 3_600_000;
    const { claimed, lastReminded } = await claimSignerReminders(
      tx,
      row.id,
      waiting.map((s) => s.position),
      now,
      new Date(now.getTime() - interval),
    );
    if (claimed.length === 0) {
      const earliest = Math.min(...lastReminded.map((at) => at.getTime()));
      throw tooManyRequests(SIGNER_REMINDED_RECENTLY, earliest + interval - now.getTime());
    }
    for (const position of claimed) await ctx.jobs.send("email", { kind: "signature-turn", requestId: row.id, position, reminder: true }, { tx });
    await updateRequest(tx, row.id, { last_reminded_at: now });
    await record(tx, ctx, row, "signature.remind", null, { signers: claimed.map((position) => position + 1) });
  });
  return adminSignatureRequest(ctx, input.id);
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

// ---------------------------------------------------------------------------------------------
// The signer

type SignerView = { row: RequestRow; signers: SignerRow[]; me: SignerRow };

function meOf(row: RequestRow, signers: SignerRow[], userId: string): SignerView {
  const me = signers.find((s) => s.user_id === userId);
  if (!me) throw new TRPCError({ code: "NOT_FOUND", message: SIGNATURE_REQUEST_NOT_FOUND });
  return { row, signers, me };
}

async function loadForSigner(ctx: ClientContext, db: Db, id: string, lock: boolean): Promise<SignerView> {
  const row = lock
    ? await lockRequestForSigner(db, ctx.account.id, ctx.user.id, id)
    : await findRequestForSigner(db, ctx.account.id, ctx.user.id, id);
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: SIGNATURE_REQUEST_NOT_FOUND });
  return meOf(row, await listSigners(db, [row.id]), ctx.user.id);
}

/** The signer's own row, for a step that needs the request open and them still to act. */
function assertPending(view: SignerView): void {
  if (!isOpen(view.row)) throw new TRPCError({ code: "CONFLICT", message: REQUEST_CLOSED });
  if (view.me.status === "signed") throw new TRPCError({ code: "CONFLICT", message: ALREADY_SIGNED });
  if (view.me.status === "declined") throw new TRPCError({ code: "CONFLICT", message: ALREADY_DECLINED });
}

function identityMethods(ctx: ClientContext, row: RequestRow, secondFactor: boolean): ClientSignatureRequest["me"]["identity_methods"] {
  if (row.kind === "form_8879") return configuredKbaProvider(ctx.config) ? ["kba"] : [];
  return secondFactor ? ["email_code", "second_factor"] : ["email_code"];
}

async function toClientRequest(ctx: ClientContext, view: SignerView): Promise<ClientSignatureRequest> {
  const { row, signers, me } = view;
  const [fields, document, secondFactor] = await Promise.all([
    listFields(ctx.db, row.id),
    findDocumentById(ctx.db, row.document_id),
    hasSecondFactor(ctx.db, ctx.user.id),
  ]);
  const note = isOpen(row) && me.identity_method !== "in_person" ? remoteSigningNote(ctx, row.kind) : null;
  return {
    ...baseOf(row),
    document_name: document?.original_filename ?? "",
    remote_signing_note: note,
    office: note && me.status === "pending" ? { address: await firmAddress(ctx), booking_path: "/dashboard?tab=appointments" } : null,
    signers: signers.map((s) => ({ index: s.position, name: s.name, status: s.status, signed_at: s.signed_at })),
    me: {
      index: me.position,
      status: me.status,
      consented: me.consent_version === ESIGN_DISCLOSURE.version,
      identity_verified: me.identity_checked_at !== null,
      may_sign: isOpen(row) && hasTurn(row, signers, me),
      identity_methods: identityMethods(ctx, row, secondFactor),
    },
    fields: fields.filter((f) => f.signer_position === me.position).map(toField),
    disclosure: { version: ESIGN_DISCLOSURE.version, text: ESIGN_DISCLOSURE.text },
  };
}

export async function listOwnSignatureRequests(ctx: ClientContext): Promise<ClientSignatureRequest[]> {
  const rows = await listRequestsForSigner(ctx.db, ctx.account.id, ctx.user.id);
  const signers = await listSigners(
    ctx.db,
    rows.map((r) => r.id),
  );
  return Promise.all(
    rows.map((row) =>
      toClientRequest(
        ctx,
        meOf(
          row,
          signers.filter((s) => s.request_id === row.id),
          ctx.user.id,
        ),
      ),
    ),
  );
}

/** The first time a signer opens the request (or its document) is recorded as viewed. */
async function markViewed(ctx: ClientContext, view: SignerView, what: "request" | "document"): Promise<void> {
  if (view.me.viewed_at) return;
  await ctx.db.transaction().execute(async (tx) => {
    const updated = await tx
      .updateTable("signature_signers")
      .set({ viewed_at: ctx.now() })
      .where("id", "=", view.me.id)
      .where("viewed_at", "is", null)
      .returning("id")
      .executeTakeFirst();
    if (!updated) return;
    await record(tx, ctx, view.row, "signature.view", view.me.position, { opened: what });
    await tellFirm(tx, ctx, view.row, "signature_viewed");
  });
}

export async function getOwnSignatureRequest(ctx: ClientContext, input: { id: string }): Promise<ClientSignatureRequest> {
  const view = await loadForSigner(ctx, ctx.db, input.id, false);
  await markViewed(ctx, view, "request");
  return toClientRequest(ctx, await loadForSigner(ctx, ctx.db, input.id, false));
}

/** The PDF to read and sign: the original while the request is open, the sealed one once completed. */
export async function ownSignatureDocument(ctx: ClientContext, input: { id: string }): Promise<StoredDocument> {
  const view = await loadForSigner(ctx, ctx.db, input.id, false);
  await markViewed(ctx, view, "document");
  const document = await findDocumentById(ctx.db, view.row.sealed_document_id ?? view.row.document_id);
  if (!document) throw new TRPCError({ code: "NOT_FOUND", message: SIGNATURE_REQUEST_NOT_FOUND });
  return document;
}

export async function consentToDisclosure(ctx: ClientContext, input: { id: string; disclosure_version: string }): Promise<ClientSignatureRequest> {
  if (input.disclosure_version !== ESIGN_DISCLOSURE.version) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: DISCLOSURE_OUTDATED });
  await ctx.db.transaction().execute(async (tx) => {
    const view = await loadForSigner(ctx, tx, input.id, true);
    assertPending(view);
    if (view.me.consent_version === ESIGN_DISCLOSURE.version) return;
    const ip = ctx.ip && ctx.ip !== "unknown" ? ctx.ip : null;
    await updateSigner(tx, view.me.id, { consent_version: ESIGN_DISCLOSURE.version, consented_at: ctx.now(), consent_ip: ip });
    await insertConsent(tx, {
      user_id: ctx.user.id,
      request_id: view.row.id,
      disclosure_version: ESIGN_DISCLOSURE.version,
      consented_at: ctx.now(),
      ip,
      user_agent: ctx.userAgent,
    });
    await record(tx, ctx, view.row, "signature.consent", view.me.position, { disclosure_version: ESIGN_DISCLOSURE.version });
  });
  return toClientRequest(ctx, await loadForSigner(ctx, ctx.db, input.id, false));
}

export async function declineSignature(ctx: ClientContext, input: { id: string; reason: string }): Promise<ClientSignatureRequest> {
  await ctx.db.transaction().execute(async (tx) => {
    const view = await loadForSigner(ctx, tx, input.id, true);
    assertPending(view);
    await updateSigner(tx, view.me.id, { status: "declined", declined_at: ctx.now(), decline_reason: input.reason, code_hash: null });
    await updateRequest(tx, view.row.id, { status: "declined", updated_at: ctx.now() });
    await releaseOriginal(tx, view.row.document_id);
    await ctx.jobs.send("email", { kind: "signature-declined", requestId: view.row.id, position: view.me.position }, { tx });
    await record(tx, ctx, view.row, "signature.decline", view.me.position, { reason: input.reason });
    await tellFirm(tx, ctx, view.row, "signature_declined", { reason: input.reason });
  });
  return toClientRequest(ctx, await loadForSigner(ctx, ctx.db, input.id, false));
}

function maskEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 1)}${"*".repeat(Math.max(1, Math.min(local.length - 1, 6)))}@${domain}`;
}

export async function startIdentityCheck(ctx: ClientContext, input: { id: string }) {
  const view = await loadForSigner(ctx, ctx.db, input.id, false);
  assertPending(view);
  if (view.row.kind === "form_8879") {
    const kba = configuredKbaProvider(ctx.config);
    if (!kba) throw new TRPCError({ code: "CONFLICT", message: KBA_NEEDED });
    const started = await kba.start({ name: view.me.name, email: view.me.email });
    return { method: "kba" as const, sent_to: null, url: started.url, reference: started.reference, expires_at: started.expires_at };
  }
  const now = ctx.now();
  if (view.me.code_expires_at && view.me.code_expires_at.getTime() - CODE_TTL_MS + CODE_RESEND_MS > now.getTime()) {
    throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: CODE_TOO_SOON });
  }
  await ctx.db.transaction().execute(async (tx) => {
    // Marks the resend window at once; the job writes the code (and its expiry) when it sends it.
    await updateSigner(tx, view.me.id, { code_expires_at: new Date(now.getTime() + CODE_TTL_MS), code_hash: null, code_attempts: 0 });
    await ctx.jobs.send("email", { kind: "signature-code", requestId: view.row.id, signerId: view.me.id }, { tx });
  });
  return {
    method: "email_code" as const,
    sent_to: maskEmail(view.me.email),
    url: null,
    reference: null,
    expires_at: new Date(now.getTime() + CODE_TTL_MS),
  };
}

type VerifyOutcome = { ok: true; method: IdentityMethod; at: Date } | { ok: false; error: TRPCError };

export async function checkIdentity(ctx: ClientContext, input: { id: string; code: string }) {
  const outcome = await ctx.db.transaction().execute(async (tx): Promise<VerifyOutcome> => {
    const view = await loadForSigner(ctx, tx, input.id, true);
    assertPending(view);
    const { me, row } = view;
    if (me.identity_checked_at && me.identity_method) return { ok: true, method: me.identity_method, at: me.identity_checked_at };
    const now = ctx.now();
    let method: "email_code" | "second_factor" | "kba" | null = null;
    let result = "";
    if (row.kind === "form_8879") {
      const kba = configuredKbaProvider(ctx.config);
      if (!kba) return { ok: false, error: new TRPCError({ code: "CONFLICT", message: KBA_NEEDED }) };
      const checked = await kba.result(input.code);
      if (checked.passed) [method, result] = ["kba", `${kba.name}: passed (${checked.reference}) ${checked.detail}`.trim()];
    } else {
      const code = input.code.replace(/\s+/g, "");
      const codeLive = me.code_hash !== null && me.code_expires_at !== null && me.code_expires_at > now;
      // Wrong tries count against an emailed code and a second factor's alike (no guessing an
      // authenticator's codes here either); a new code, at most one a minute, starts the count again.
      if (me.code_attempts >= CODE_MAX_ATTEMPTS) return { ok: false, error: new TRPCError({ code: "TOO_MANY_REQUESTS", message: CODE_TOO_MANY }) };
      if (codeLive && /^\d{6}$/.test(code) && hashSignatureCode(me.id, code) === me.code_hash) {
        [method, result] = ["email_code", `Code sent to ${me.email} entered`];
      } else if (await useSecondFactor(tx, ctx.config.totpEncryptionKey, ctx.user.id, input.code, now)) {
        [method, result] = ["second_factor", "The person's own second factor (authenticator app or backup code) accepted"];
      } else {
        await updateSigner(tx, me.id, { code_attempts: me.code_attempts + 1 });
      }
    }
    if (!method) return { ok: false, error: new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: CODE_WRONG }) };
    await updateSigner(tx, me.id, { identity_method: method, identity_result: result, identity_checked_at: now, code_hash: null });
    await record(tx, ctx, row, "signature.verify", me.position, { method });
    return { ok: true, method, at: now };
  });
  if (!outcome.ok) throw outcome.error;
  return { identity_method: outcome.method, identity_checked_at: outcome.at };
}

/** What a required field lacks, in words the signer (and the 422) can use. */
function describeField(field: FieldRow): string {
  return `${field.type} on page ${field.page} (${field.id})`;
}

export async function signRequest(ctx: ClientContext, input: SignInput): Promise<ClientSignatureRequest> {
  // A drawing the seal could not draw would fail the last signer's signature, whoever they are.
  if (input.signature.type === "drawn" && !(await isDrawablePng(input.signature.image))) {
    throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: DRAWING_UNREADABLE });
  }
  await ctx.db.transaction().execute(async (tx) => {
    const view = await loadForSigner(ctx, tx, input.id, true);
    assertPending(view);
    const { row, signers, me } = view;
    if (!hasTurn(row, signers, me)) throw new TRPCError({ code: "CONFLICT", message: NOT_YOUR_TURN });
    if (me.consent_version !== ESIGN_DISCLOSURE.version) throw new TRPCError({ code: "CONFLICT", message: CONSENT_FIRST });
    if (row.kind === "form_8879" && me.identity_method !== "in_person" && me.identity_method !== "kba") {
      throw new TRPCError({ code: "FORBIDDEN", message: KBA_NEEDED });
    }
    if (!me.identity_checked_at) throw new TRPCError({ code: "FORBIDDEN", message: IDENTITY_FIRST });
    const own = (await listFields(tx, row.id)).filter((f) => f.signer_position === me.position);
    const foreign = Object.keys(input.values).filter((id) => !own.some((f) => f.id === id));
    if (foreign.length > 0)
      throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: `values name fields that are not yours: ${foreign.join(", ")}` });
    const signedDay = localDate(ctx.now(), ctx.config.firmTimeZone);
    const typedName = input.signature.type === "typed" ? input.signature.text : me.name;
    const values = new Map<string, string>();
    const missing: FieldRow[] = [];
    const badCheckbox: FieldRow[] = [];
    for (const field of own) {
      const given = input.values[field.id]?.trim();
      let value: string | null = given || null;
      if (field.type === "signature") value = input.signature.type === "typed" ? input.signature.text : "(drawn signature)";
      else if (field.type === "date") value = signedDay;
      else if (field.type === "name") value = value ?? me.name;
      else if (field.type === "initials") value = value ?? initialsOf(typedName);
      else if (field.type === "checkbox") {
        if (value !== null && value !== "true" && value !== "false") badCheckbox.push(field);
        if (field.required && value !== "true") missing.push(field);
      } else if (field.required && !value) missing.push(field);
      if (value !== null) values.set(field.id, value);
    }
    if (badCheckbox.length > 0) {
      throw new TRPCError({
        code: "UNPROCESSABLE_CONTENT",
        message: `A checkbox's value is "true" or "false": ${badCheckbox.map(describeField).join(", ")}`,
      });
    }
    if (missing.length > 0)
      throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: `Fill the required fields: ${missing.map(describeField).join(", ")}` });
    for (const [fieldId, value] of values) await setFieldValue(tx, fieldId, value);
    const now = ctx.now();
    await updateSigner(tx, me.id, {
      status: "signed",
      signed_at: now,
      sign_ip: ctx.ip && ctx.ip !== "unknown" ? ctx.ip : null,
      sign_user_agent: ctx.userAgent,
      signature_type: input.signature.type,
      signature_text: input.signature.type === "typed" ? input.signature.text : null,
      signature_image: input.signature.type === "drawn" ? input.signature.image : null,
    });
    await record(tx, ctx, row, "signature.sign", me.position, { signature: input.signature.type });
    await tellFirm(tx, ctx, row, "signature_signed");
    const after = await listSigners(tx, [row.id]);
    if (after.every((s) => s.status === "signed")) {
      await sealRequest(tx, ctx, row, after);
    } else {
      await updateRequest(tx, row.id, { status: "partially_signed", updated_at: now });
      if (row.signing_order === "sequential") {
        const next = after.find((s) => s.status === "pending");
        if (next) await ctx.jobs.send("email", { kind: "signature-turn", requestId: row.id, position: next.position }, { tx });
      }
    }
  });
  return toClientRequest(ctx, await loadForSigner(ctx, ctx.db, input.id, false));
}

const IDENTITY_LABEL = {
  email_code: "email code",
  second_factor: "second factor",
  kba: "knowledge-based authentication",
  in_person: "in person",
} as const;

/**
 * The last signature: the sealed PDF is made, stored in the account's "Signed documents" folder and
 * recorded, and both files are retained for RETENTION_YEARS, in the signature's transaction. A
 * failure after the file is stored leaves an object without a row, which the orphan sweep removes.
 */
async function sealRequest(tx: Db, ctx: ClientContext, row: RequestRow, signers: SignerRow[]): Promise<void> {
  const now = ctx.now();
  const original = await findDocumentById(tx, row.document_id);
  if (!original) throw new Error(`signature request ${row.id}: its original document is gone`);
  // The files' key rows are read and written in this transaction (storageWithin).
  const storage = storageWithin(ctx.storage, tx);
  const bytes = await readAll(storage, original.storage_key);
  const fields = await listFields(tx, row.id);
  const input: SealInput = {
    request: { id: row.id, title: row.title, kind: row.kind, account: row.account_name, created: row.created_at, completed: now },
    originalSha256: row.original_sha256,
    fields: fields.map(toField),
    signers: signers.map((s) => ({
      index: s.position,
      name: s.name,
      email: s.email,
      identity: s.identity_method
        ? `${IDENTITY_LABEL[s.identity_method]}: ${s.identity_result ?? ""} (${s.identity_checked_at?.toISOString() ?? ""})`
        : "none",
      consent: s.consented_at ? `version ${s.consent_version} at ${s.consented_at.toISOString()} from ${s.consent_ip ?? "unknown IP"}` : "none",
      ip: s.sign_ip,
      userAgent: s.sign_user_agent,
      viewedAt: s.viewed_at,
      signedAt: s.signed_at,
      signature:
        s.signature_type === "drawn" && s.signature_image
          ? { type: "drawn", image: s.signature_image }
          : s.signature_type === "typed" && s.signature_text
            ? { type: "typed", text: s.signature_text }
            : null,
    })),
    firmName: await firmName({ db: tx }),
    publicUrl: ctx.config.publicUrl,
  };
  const sealed = await sealPdf(bytes, input, await sealingIdentity({ ...ctx, db: tx }), now);
  const key = randomUUID();
  await storage.put(key, Readable.from([sealed.bytes]));
  const folderId = await rootFolderNamed(tx, row.account_id, SIGNED_FOLDER, now);
  const name = cleanFilename(`${row.title.replace(/\.pdf$/i, "")} (signed).pdf`);
  const document = await insertDocument(tx, {
    account_id: row.account_id,
    uploaded_by: ctx.user.id,
    folder_id: folderId,
    original_filename: name,
    storage_key: key,
    content_type: "application/pdf",
    file_size: sealed.bytes.length,
    sha256: sealed.sha256,
    upload_date: now,
    text_extracted_at: now,
  });
  const until = retentionEnd(now);
  await retainDocuments(tx, [original.id, document.id], until);
  await updateRequest(tx, row.id, {
    status: "completed",
    completed_at: now,
    sealed_document_id: document.id,
    sealed_sha256: sealed.sha256,
    updated_at: now,
  });
  await ctx.jobs.send("email", { kind: "signature-completed", requestId: row.id }, { tx });
  await record(tx, ctx, row, "signature.complete", null, { document: name, sha256: sealed.sha256, retained_until: until.toISOString() });
  await tellFirm(tx, ctx, row, "signature_completed");
}
