// Every Kysely statement of the signatures domain. A client's reach is the current account's
// requests on which they are a signer; the firm's is its scope (firm-scope.ts).
import { type Insertable, sql, type Updateable } from "kysely";
import type {
  Db,
  SignatureEventsTable,
  SignatureFieldsTable,
  SignatureRequestsTable,
  SignatureRequestStatus,
  SignatureSignersTable,
} from "../../db/types.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";

const requestColumns = [
  "signature_requests.id",
  "signature_requests.account_id",
  "signature_requests.document_id",
  "signature_requests.title",
  "signature_requests.kind",
  "signature_requests.signing_order",
  "signature_requests.status",
  "signature_requests.due_date",
  "signature_requests.message",
  "signature_requests.created_by",
  "signature_requests.original_sha256",
  "signature_requests.sealed_document_id",
  "signature_requests.sealed_sha256",
  "signature_requests.void_reason",
  "signature_requests.last_reminded_at",
  "signature_requests.completed_at",
  "signature_requests.created_at",
  "signature_requests.updated_at",
  "accounts.name as account_name",
] as const;

function requestsWithAccount(db: Db) {
  return db.selectFrom("signature_requests").innerJoin("accounts", "accounts.id", "signature_requests.account_id");
}

export type RequestRow = Awaited<ReturnType<typeof findRequestForFirm>> & object;

/** A live PDF of the account, to send for signature. */
export function findAccountDocument(db: Db, accountId: string, documentId: string) {
  return db
    .selectFrom("documents")
    .select(["id", "original_filename", "content_type", "storage_key", "sha256", "folder_id", "file_size", "account_id"])
    .where("id", "=", documentId)
    .where("account_id", "=", accountId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/**
 * The PDF the firm uploaded while preparing the request goes to the account's people with it
 * (docs/decisions.md, "A PDF for a signature request waits for the request").
 */
export async function shareHeldDocument(db: Db, documentId: string): Promise<void> {
  await db.updateTable("documents").set({ held_for_signature: false }).where("id", "=", documentId).where("held_for_signature", "=", true).execute();
}

/** Any document row by id (the original or sealed file of a request already reached). */
export function findDocumentById(db: Db, documentId: string) {
  return db
    .selectFrom("documents")
    .select(["id", "original_filename", "content_type", "storage_key", "sha256", "folder_id", "file_size", "account_id"])
    .where("id", "=", documentId)
    .executeTakeFirst();
}

/** Of these people, the account's contacts who may sign in to it. */
export function listAccountPeople(db: Db, accountId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("account_contacts")
    .innerJoin("users", "users.id", "account_contacts.user_id")
    .select(["users.id", "users.name", "users.email", "users.username"])
    .where("account_contacts.account_id", "=", accountId)
    .where("account_contacts.portal_access", "=", true)
    .where("users.deactivated_at", "is", null)
    .where("users.id", "in", userIds)
    .execute();
}

/**
 * Of these invitations, those to this client account neither accepted nor revoked (an expired one
 * still counts: the firm resends it, and the slot waits): the people invited who may be signers.
 */
export function listAccountInvitees(db: Db, accountId: string, invitationIds: readonly string[]) {
  if (invitationIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("invitations")
    .select(["id", "name", "email"])
    .where("account_id", "=", accountId)
    .where("staff_role", "is", null)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("id", "in", invitationIds)
    .execute();
}

export function insertSignatureRequest(db: Db, row: Insertable<SignatureRequestsTable>) {
  return db.insertInto("signature_requests").values(row).returning("id").executeTakeFirstOrThrow();
}

export async function insertSigners(db: Db, rows: Insertable<SignatureSignersTable>[]) {
  await db.insertInto("signature_signers").values(rows).execute();
}

export async function insertFields(db: Db, rows: Insertable<SignatureFieldsTable>[]) {
  await db.insertInto("signature_fields").values(rows).execute();
}

export async function insertEvent(db: Db, row: Insertable<SignatureEventsTable>) {
  await db.insertInto("signature_events").values(row).execute();
}

/** The firm's list, newest first, by account and status. */
export function listRequestsForFirm(db: Db, scope: FirmScope, filter: { accountId?: string; status?: SignatureRequestStatus }) {
  let query = requestsWithAccount(db).select(requestColumns).where(inFirmScope(scope, "signature_requests.account_id"));
  if (filter.accountId) query = query.where("signature_requests.account_id", "=", filter.accountId);
  if (filter.status) query = query.where("signature_requests.status", "=", filter.status);
  return query.orderBy("signature_requests.created_at", "desc").orderBy("signature_requests.id", "desc").limit(500).execute();
}

export function findRequestForFirm(db: Db, scope: FirmScope, id: string) {
  return requestsWithAccount(db)
    .select(requestColumns)
    .where("signature_requests.id", "=", id)
    .where(inFirmScope(scope, "signature_requests.account_id"))
    .executeTakeFirst();
}

/** As findRequestForFirm, locked for a change. */
export function lockRequestForFirm(db: Db, scope: FirmScope, id: string) {
  return requestsWithAccount(db)
    .select(requestColumns)
    .where("signature_requests.id", "=", id)
    .where(inFirmScope(scope, "signature_requests.account_id"))
    .forUpdate("signature_requests")
    .executeTakeFirst();
}

/** Any request by id: for jobs and the sealing, which act on a request already reached. */
export function findRequestById(db: Db, id: string) {
  return requestsWithAccount(db).select(requestColumns).where("signature_requests.id", "=", id).executeTakeFirst();
}

const isSigner = (accountId: string, userId: string) =>
  sql<boolean>`signature_requests.account_id = ${accountId} and exists (
    select 1 from signature_signers s where s.request_id = signature_requests.id and s.user_id = ${userId})`;

/** The current account's requests on which this person signs, open ones first, newest first. */
export function listRequestsForSigner(db: Db, accountId: string, userId: string) {
  return requestsWithAccount(db)
    .select(requestColumns)
    .where(isSigner(accountId, userId))
    .orderBy(sql`case when signature_requests.status in ('sent', 'partially_signed') then 0 else 1 end`)
    .orderBy("signature_requests.created_at", "desc")
    .orderBy("signature_requests.id", "desc")
    .limit(500)
    .execute();
}

/**
 * An account's requests for its export, oldest first, with the names of the original and the sealed
 * PDF: every one for the firm (`signerId` null), or those on which this person signs, the client's reach.
 */
export function listAccountRequestsForExport(db: Db, accountId: string, signerId: string | null) {
  let query = requestsWithAccount(db)
    .leftJoin("documents as original", "original.id", "signature_requests.document_id")
    .leftJoin("documents as sealed", "sealed.id", "signature_requests.sealed_document_id")
    .select(requestColumns)
    .select(["original.original_filename as document_name", "sealed.original_filename as sealed_document_name"])
    .where("signature_requests.account_id", "=", accountId);
  if (signerId) query = query.where(isSigner(accountId, signerId));
  return query.orderBy("signature_requests.created_at").orderBy("signature_requests.id").execute();
}

/** One request of the current account on which this person signs; any other is not found. */
export function findRequestForSigner(db: Db, accountId: string, userId: string, id: string) {
  return requestsWithAccount(db).select(requestColumns).where("signature_requests.id", "=", id).where(isSigner(accountId, userId)).executeTakeFirst();
}

/** As findRequestForSigner, locked for a change (one signature at a time per request). */
export function lockRequestForSigner(db: Db, accountId: string, userId: string, id: string) {
  return requestsWithAccount(db)
    .select(requestColumns)
    .where("signature_requests.id", "=", id)
    .where(isSigner(accountId, userId))
    .forUpdate("signature_requests")
    .executeTakeFirst();
}

const signerColumns = [
  "id",
  "request_id",
  "position",
  "user_id",
  "invitation_id",
  "name",
  "email",
  "status",
  "viewed_at",
  "consent_version",
  "consented_at",
  "consent_ip",
  "identity_method",
  "identity_result",
  "identity_checked_at",
  "identity_checked_by",
  "code_hash",
  "code_expires_at",
  "code_attempts",
  "signed_at",
  "sign_ip",
  "sign_user_agent",
  "signature_type",
  "signature_text",
  "signature_image",
  "declined_at",
  "decline_reason",
] as const;

export type SignerRow = Awaited<ReturnType<typeof listSigners>>[number];

/** The signers of these requests, by request and position. */
export function listSigners(db: Db, requestIds: readonly string[]) {
  if (requestIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("signature_signers")
    .select(signerColumns)
    .where("request_id", "in", requestIds)
    .orderBy("request_id")
    .orderBy("position")
    .execute();
}

export type FieldRow = Awaited<ReturnType<typeof listFields>>[number];

export function listFields(db: Db, requestId: string) {
  return db
    .selectFrom("signature_fields")
    .select(["id", "signer_position", "type", "page", "x", "y", "width", "height", "required", "value"])
    .where("request_id", "=", requestId)
    .orderBy("ordinal")
    .execute();
}

export function listEvents(db: Db, requestIds: readonly string[]) {
  if (requestIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("signature_events")
    .select(["request_id", "occurred_at", "action", "signer_position", "actor_id", "actor_label", "detail"])
    .where("request_id", "in", requestIds)
    .orderBy("id")
    .execute();
}

export async function updateSigner(db: Db, signerId: string, values: Updateable<SignatureSignersTable>) {
  await db.updateTable("signature_signers").set(values).where("id", "=", signerId).execute();
}

/**
 * Claims a reminder for each of these signers not reminded since `since` (docs/security.md, Round 4):
 * one conditional UPDATE, so two reminders at once cannot both claim a signer. Returns the positions
 * claimed, and when the others were last reminded.
 */
export async function claimSignerReminders(
  db: Db,
  requestId: string,
  positions: readonly number[],
  now: Date,
  since: Date,
): Promise<{ claimed: number[]; lastReminded: Date[] }> {
  const claimed = await db
    .updateTable("signature_signers")
    .set({ last_reminded_at: now })
    .where("request_id", "=", requestId)
    .where("position", "in", positions)
    // A slot without a user is mailed nothing (mail.ts): it is never counted as reminded.
    .where("user_id", "is not", null)
    .where((eb) => eb.or([eb("last_reminded_at", "is", null), eb("last_reminded_at", "<=", since)]))
    .returning("position")
    .execute();
  const left = positions.filter((p) => !claimed.some((c) => c.position === p));
  const others = left.length
    ? await db.selectFrom("signature_signers").select("last_reminded_at").where("request_id", "=", requestId).where("position", "in", left).execute()
    : [];
  return {
    claimed: claimed.map((c) => c.position),
    lastReminded: others.flatMap((o) => (o.last_reminded_at ? [o.last_reminded_at] : [])),
  };
}

export async function updateRequest(db: Db, id: string, values: Updateable<SignatureRequestsTable>) {
  await db.updateTable("signature_requests").set(values).where("id", "=", id).execute();
}

export async function setFieldValue(db: Db, fieldId: string, value: string) {
  await db.updateTable("signature_fields").set({ value }).where("id", "=", fieldId).execute();
}

export async function insertConsent(
  db: Db,
  row: { user_id: string; request_id: string; disclosure_version: string; consented_at: Date; ip: string | null; user_agent: string | null },
) {
  await db.insertInto("esign_consents").values(row).execute();
}

/** Whether the person has an authenticator app turned on (their second factor may prove them). */
export async function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("totp_credentials")
    .select("user_id")
    .where("user_id", "=", userId)
    .where("enabled_at", "is not", null)
    .executeTakeFirst();
  return row !== undefined;
}

/** The request sealed into a file of this SHA-256, if any. */
export function findRequestBySealedHash(db: Db, sha256: string) {
  return db
    .selectFrom("signature_requests")
    .select(["id", "title", "kind", "completed_at", "status"])
    .where("sealed_sha256", "=", sha256)
    .executeTakeFirst();
}

/** The account's root folder of that name, made if missing (a same-named one made meanwhile is taken). */
export async function rootFolderNamed(db: Db, accountId: string, name: string, now: Date): Promise<string> {
  const find = () =>
    db
      .selectFrom("folders")
      .select("id")
      .where("account_id", "=", accountId)
      .where("parent_folder_id", "is", null)
      .where(sql`lower(name)`, "=", name.toLowerCase())
      .executeTakeFirst();
  const found = await find();
  if (found) return found.id;
  await db
    .insertInto("folders")
    .values({ account_id: accountId, parent_folder_id: null, name, color: "#10B981", created_at: now })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const made = await find();
  if (!made) throw new Error(`folder ${name} could not be made`);
  return made.id;
}

/** Whether a request still open, or completed, holds this document (as its original or its sealed file). */
export async function isDocumentHeld(db: Db, documentId: string): Promise<boolean> {
  const row = await db
    .selectFrom("signature_requests")
    .select("id")
    .where((eb) => eb.or([eb("document_id", "=", documentId), eb("sealed_document_id", "=", documentId)]))
    .where("status", "in", ["sent", "partially_signed", "completed"])
    .executeTakeFirst();
  return row !== undefined;
}

export async function retainDocuments(db: Db, documentIds: readonly string[], until: Date | null) {
  await db.updateTable("documents").set({ retained_until: until }).where("id", "in", documentIds).execute();
}

export function findSigningCertificate(db: Db, id: string) {
  return db.selectFrom("signing_certificates").select(["p12", "sealed_password"]).where("id", "=", id).executeTakeFirst();
}

export async function insertSigningCertificate(db: Db, row: { id: string; p12: string; sealed_password: string }) {
  await db
    .insertInto("signing_certificates")
    .values(row)
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
}

/** Whether the signer's address is one its holder proved (their login's, verified): greeting() names them only then. */
export async function signerAddressProven(db: Db, signer: { user_id: string | null; email: string }): Promise<boolean> {
  if (!signer.user_id) return false;
  const row = await db
    .selectFrom("users")
    .select("id")
    .where("id", "=", signer.user_id)
    .where(sql<string>`lower(email)`, "=", signer.email.toLowerCase())
    .where("email_verified_at", "is not", null)
    .executeTakeFirst();
  return row !== undefined;
}

/** The staff member's name as the trail shows it. */
export function findUserLabel(db: Db, userId: string) {
  return db.selectFrom("users").select(["name", "email", "username"]).where("id", "=", userId).executeTakeFirst();
}

/** Open requests due in the window whose reminder for that date has not gone out, marked as reminded. */
export function takeDueSignatureReminders(db: Db, window: { from: string; to: string }) {
  return db
    .updateTable("signature_requests")
    .set({ due_reminder_for: sql`due_date` })
    .where("status", "in", ["sent", "partially_signed"])
    .where("due_date", ">=", window.from)
    .where("due_date", "<=", window.to)
    .where(sql<boolean>`due_reminder_for is distinct from due_date`)
    .returning(["id", "signing_order"])
    .execute();
}
