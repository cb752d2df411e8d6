// The last signature seals the request (docs/decisions.md, "Signatures"): the sealed PDF (its bytes made by
// seal.ts) stored, recorded and retained in the signature's transaction.
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { Db } from "../../db/types.ts";
import { storageWithin } from "../../storage/encrypted-storage.ts";
import type { ClientContext } from "../../trpc/context.ts";
import { insertDocument } from "../documents/queries.ts";
import { cleanFilename } from "../documents/upload.ts";
import { firmName } from "../site/service.ts";
import { sealingIdentity } from "./certificate.ts";
import { findDocumentById, listFields, type RequestRow, retainDocuments, rootFolderNamed, type SignerRow, updateRequest } from "./queries.ts";
import { type SealInput, sealPdf } from "./seal.ts";
import { readAll, record, retentionEnd, tellFirm, toField } from "./common.ts";

export const SIGNED_FOLDER = "Signed documents";

const IDENTITY_LABEL = {
  email_code: "email code",
  second_factor: "second factor",
  kba: "knowledge-based authentication",
  in_person: "in person",
} as const;

/**
 * The last signature: the sealed PDF is made, stored in the account's "Signed documents" folder and
 * recorded, and both files are retained until retentionEnd (common.ts), in the signature's
 * transaction. A failure after the file is stored leaves an object without a row, which the orphan
 * sweep removes.
 */
export async function sealRequest(tx: Db, ctx: ClientContext, row: RequestRow, signers: SignerRow[]): Promise<void> {
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
