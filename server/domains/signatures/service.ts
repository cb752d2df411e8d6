// Signatures (issue 35; docs/decisions.md, "Signatures"). The firm sends one of an account's PDFs to
// some of its people with fields placed on the pages; each signer agrees to the ESIGN disclosure,
// proves who they are (an emailed code or their own second factor; for a remote Form 8879 a KBA
// provider, else the firm records an in-person check of a photo ID), fills their fields and signs.
// The last signature seals the PDF in the same transaction (seal.ts), so a request is completed
// exactly when its sealed file exists. Every step goes to the request's own audit events and to
// the activity trail, with its mail queued in the step's transaction.
import { TRPCError } from "@trpc/server";
import { useSecondFactor } from "../../auth/second-factor.ts";
import type { Db, IdentityMethod } from "../../db/types.ts";
import type { ClientContext } from "../../trpc/context.ts";
import { localDate } from "../appointments/firm-clock.ts";
import { type StoredDocument } from "../documents/queries.ts";
import { firmAddress } from "../site/service.ts";
import { configuredKbaProvider } from "./kba.ts";
import { CODE_MAX_ATTEMPTS, CODE_TTL_MS, hashSignatureCode } from "./mail.ts";
import {
  type FieldRow,
  findDocumentById,
  findRequestForSigner,
  hasSecondFactor,
  insertConsent,
  listFields,
  listRequestsForSigner,
  listSigners,
  lockRequestForSigner,
  type RequestRow,
  setFieldValue,
  type SignerRow,
  updateRequest,
  updateSigner,
} from "./queries.ts";
import {
  ALREADY_DECLINED,
  ALREADY_SIGNED,
  type ClientSignatureRequest,
  CODE_TOO_MANY,
  CODE_WRONG,
  CONSENT_FIRST,
  DISCLOSURE_OUTDATED,
  ESIGN_DISCLOSURE,
  IDENTITY_FIRST,
  KBA_NEEDED,
  NOT_YOUR_TURN,
  REQUEST_CLOSED,
  SIGNATURE_REQUEST_NOT_FOUND,
  type SignInput,
} from "./schemas.ts";
import { initialsOf, isDrawablePng } from "./seal.ts";
import { sealRequest } from "./sealing.ts";
import { baseOf, hasTurn, isOpen, record, releaseOriginal, remoteSigningNote, tellFirm, toField } from "./common.ts";

const CODE_TOO_SOON = "A code was sent less than a minute ago: check your email, or wait a minute to ask again";
const CODE_RESEND_MS = 60_000;
const DRAWING_UNREADABLE = "The drawn signature is not a PNG image that can be read: draw it again";

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
