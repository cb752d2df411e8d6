// What the firm's side (firm-service.ts), the signer's (service.ts) and the sealing (sealing.ts) of a
// signature request share: its trail, the firm's Inbox, whose turn it is and the request's common answer.
import type { Db } from "../../db/types.ts";
import type { ObjectStorage } from "../../storage/storage.ts";
import type { AuthedContext, ClientContext } from "../../trpc/context.ts";
import { accountClient, accountLabel, type ActivityAction, recordActivity } from "../activity/record.ts";
import { addToInbox } from "../inbox/queries.ts";
import { FORM_8879_MIN_YEARS } from "../retention/schemas.ts";
import { configuredKbaProvider } from "./kba.ts";
import { type FieldRow, insertEvent, isDocumentHeld, type RequestRow, retainDocuments, type SignerRow } from "./queries.ts";
import { KBA_NEEDED, type SignatureStatus } from "./schemas.ts";

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
export const isOpen = (request: { status: SignatureStatus }) => OPEN.includes(request.status);

export async function readAll(storage: ObjectStorage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(key)) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** The request's own trail and the activity trail, in the change's transaction. */
export async function record(
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
export async function tellFirm(
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
export function remoteSigningNote(ctx: Pick<AuthedContext, "config">, kind: string): string | null {
  return kind === "form_8879" && !configuredKbaProvider(ctx.config) ? KBA_NEEDED : null;
}

/** Whose turn it is: everyone pending in parallel order; in sequential order, the first pending signer. */
export function hasTurn(request: { signing_order: string }, signers: SignerRow[], signer: SignerRow): boolean {
  if (signer.status !== "pending") return false;
  if (request.signing_order === "parallel") return true;
  return signers.filter((s) => s.position < signer.position).every((s) => s.status === "signed");
}

export function toField(field: FieldRow) {
  const { signer_position, ...rest } = field;
  return { ...rest, signer: signer_position };
}

export function baseOf(row: RequestRow) {
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

/**
 * Until when a signed document's original and sealed PDF stay unchanged: the Form 8879 minimum of the
 * retention rules (docs/safeguards.md, "Retention and disposal"), for a signed document of any kind.
 */
export function retentionEnd(from: Date): Date {
  const until = new Date(from);
  until.setUTCFullYear(until.getUTCFullYear() + FORM_8879_MIN_YEARS);
  return until;
}

/** A request that ended unsigned no longer holds its original, unless another request still does. */
export async function releaseOriginal(tx: Db, documentId: string): Promise<void> {
  if (!(await isDocumentHeld(tx, documentId))) await retainDocuments(tx, [documentId], null);
}
