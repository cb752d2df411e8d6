// The emails about signature requests, written when their jobs run (jobs/email.ts): to a signer
// when it is their turn (and the firm's reminders), the signer's one-time code (made as it is sent,
// so no code waits in the queue), to the firm when someone declines, to everyone when the sealed
// PDF is ready, and to the signers still waiting when the firm voids a request. No mail holds a
// document; each is checked again when written, so a request closed since gets none.
import { createHash, randomInt } from "node:crypto";
import type { Outgoing } from "../../mail/outgoing.ts";
import { composeEmail, oneLine } from "../../mail/compose.ts";
import type { AppDeps } from "../../trpc/context.ts";
import { firmAddress, firmContactEmail, firmName } from "../site/service.ts";
import { greeting } from "../auth/mail.ts";
import { configuredKbaProvider } from "./kba.ts";
import { findRequestById, listSigners, signerAddressProven, updateSigner } from "./queries.ts";

/** The email code's lifetime and how many wrong tries it takes. */
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;

export function hashSignatureCode(signerId: string, code: string): string {
  return createHash("sha256").update(`${signerId}:${code}`).digest("hex");
}

function signingLink(deps: AppDeps, requestId: string): string {
  return new URL(`/signatures/${requestId}`, deps.config.publicUrl).toString();
}

const KIND_LABEL = { engagement_letter: "Engagement letter", form_8879: "IRS Form 8879", other: "Document" } as const;

export type SignatureTurnJob = { requestId: string; position: number; reminder?: boolean };

/** To a signer whose turn it is: the firm asks for a signature (or reminds). */
export async function signatureTurnMail(deps: AppDeps, job: SignatureTurnJob): Promise<Outgoing | null> {
  const request = await findRequestById(deps.db, job.requestId);
  if (!request || (request.status !== "sent" && request.status !== "partially_signed")) return null;
  const signer = (await listSigners(deps.db, [request.id])).find((s) => s.position === job.position);
  if (!signer || signer.status !== "pending") return null;
  // Held for an invited person who has not signed up: nothing they could open yet. Their invitation
  // mail says what waits for them (invitations/mail.ts), and the request is on their dashboard when they accept.
  if (signer.user_id === null) return null;
  const firm = await firmName(deps);
  if (request.kind === "form_8879" && !configuredKbaProvider(deps.config)) return officeSigningMail(deps, firm, request, signer, job);
  const body = composeEmail({
    firmName: firm,
    heading: job.reminder ? "A reminder: a document waits for your signature" : "Please sign a document",
    paragraphs: [
      greeting({ name: signer.name, email_verified: await signerAddressProven(deps.db, signer) }),
      `${firm} asks you to sign "${oneLine(request.title, 200)}" in the client portal. You can read it, sign it on your phone or computer, and download a copy.`,
      ...(request.message ? [request.message] : []),
    ],
    details: [
      ["Document", request.title],
      ["Kind", KIND_LABEL[request.kind]],
      ...(request.due_date ? ([["Please sign by", request.due_date]] as Array<[string, string]>) : []),
    ],
    action: { label: "Review and sign", url: signingLink(deps, request.id) },
  });
  return {
    message: { to: signer.email, subject: `${job.reminder ? "Reminder: " : ""}Please sign: ${oneLine(request.title, 80)} - ${firm}`, ...body },
  };
}

/**
 * A Form 8879 without an identity-check provider is signed at the firm's office, where the firm checks
 * a photo ID (IRS e-file rules; kba.ts): the mail says so from its first line, with the office's
 * address, where to book a visit and where to read the form before (docs/decisions.md, "Form 8879 at the office").
 */
async function officeSigningMail(
  deps: AppDeps,
  firm: string,
  request: NonNullable<Awaited<ReturnType<typeof findRequestById>>>,
  signer: { name: string; email: string },
  job: SignatureTurnJob,
): Promise<Outgoing> {
  const address = await firmAddress(deps);
  const body = composeEmail({
    firmName: firm,
    heading: job.reminder ? "A reminder: your Form 8879 waits for your signature at our office" : "Please sign your Form 8879 at our office",
    paragraphs: [
      `Hello ${signer.name},`,
      `${firm} asks you to sign "${oneLine(request.title, 200)}". IRS e-file rules ask us to check your identity before you sign a Form 8879, and we do that in person: please come to our office with a photo ID (a driver's license or passport), and you sign it there.`,
      `Our office: ${address}.`,
      "You can read the form in the client portal before you come, and book a time for your visit there.",
      ...(request.message ? [request.message] : []),
    ],
    details: [
      ["Document", request.title],
      ["Kind", KIND_LABEL[request.kind]],
      ["Where to sign", address],
      ["Book a visit", new URL("/dashboard?tab=appointments", deps.config.publicUrl).toString()],
      ...(request.due_date ? ([["Please sign by", request.due_date]] as Array<[string, string]>) : []),
    ],
    action: { label: "Read the form", url: signingLink(deps, request.id) },
  });
  return {
    message: {
      to: signer.email,
      subject: `${job.reminder ? "Reminder: " : ""}Please sign at our office: ${oneLine(request.title, 80)} - ${firm}`,
      ...body,
    },
  };
}

export type SignatureCodeJob = { signerId: string; requestId: string };

/** To a signer: the 6-digit code proving they read this address, made now (its hash is stored). */
export async function signatureCodeMail(deps: AppDeps, job: SignatureCodeJob): Promise<Outgoing | null> {
  const request = await findRequestById(deps.db, job.requestId);
  if (!request || (request.status !== "sent" && request.status !== "partially_signed")) return null;
  const signer = (await listSigners(deps.db, [request.id])).find((s) => s.id === job.signerId);
  if (!signer || signer.status !== "pending") return null;
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await updateSigner(deps.db, signer.id, {
    code_hash: hashSignatureCode(signer.id, code),
    code_expires_at: new Date(deps.now().getTime() + CODE_TTL_MS),
    code_attempts: 0,
  });
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "Your signing code",
    paragraphs: [
      greeting({ name: signer.name, email_verified: await signerAddressProven(deps.db, signer) }),
      `Enter this code to confirm it is you before signing "${oneLine(request.title, 200)}". It works once and expires in 10 minutes.`,
      code,
    ],
    footer: "If you did not ask for a code, ignore this email; nobody can sign for you without it.",
  });
  return { message: { to: signer.email, subject: `Your signing code: ${code} - ${firm}`, ...body } };
}

export type SignatureDeclinedJob = { requestId: string; position: number };

/** To the firm: a signer declined (their reason is in the portal's request). */
export async function signatureDeclinedMail(deps: AppDeps, job: SignatureDeclinedJob): Promise<Outgoing | null> {
  const request = await findRequestById(deps.db, job.requestId);
  if (!request) return null;
  const signer = (await listSigners(deps.db, [request.id])).find((s) => s.position === job.position);
  if (!signer || signer.status !== "declined") return null;
  const [firm, to] = await Promise.all([firmName(deps), firmContactEmail(deps)]);
  const body = composeEmail({
    firmName: firm,
    heading: "A signer declined",
    paragraphs: [`${signer.name} (${signer.email}) declined to sign "${oneLine(request.title, 200)}" for ${request.account_name}.`],
    details: [
      ["Request", request.title],
      ["Reason", signer.decline_reason ?? ""],
    ],
    action: { label: "Open the admin portal", url: new URL("/admin/dashboard", deps.config.publicUrl).toString() },
  });
  return { message: { to, subject: `Declined: ${oneLine(request.title, 80)} (${oneLine(signer.name, 60)})`, ...body } };
}

export type SignatureCompletedJob = { requestId: string };

/** To every signer and the firm: the sealed PDF is in the account's "Signed documents" folder. */
export async function signatureCompletedMail(deps: AppDeps, job: SignatureCompletedJob): Promise<Outgoing | null> {
  const request = await findRequestById(deps.db, job.requestId);
  if (!request || request.status !== "completed") return null;
  const signers = await listSigners(deps.db, [request.id]);
  const [firm, firmAddress] = await Promise.all([firmName(deps), firmContactEmail(deps)]);
  const body = composeEmail({
    firmName: firm,
    heading: "Signed by everyone",
    paragraphs: [
      `"${oneLine(request.title, 200)}" is signed by everyone. The signed PDF, with its signature certificate, is in the client portal's "Signed documents" folder.`,
    ],
    details: [
      ["Document", request.title],
      ["Signed by", signers.map((s) => s.name).join(", ")],
      ["SHA-256 of the signed PDF", request.sealed_sha256 ?? ""],
    ],
    action: { label: "Open the signed document", url: signingLink(deps, request.id) },
  });
  const to = [...new Set([...signers.map((s) => s.email), firmAddress])].join(", ");
  return { message: { to, subject: `Signed: ${oneLine(request.title, 80)} - ${firm}`, ...body } };
}

export type SignatureVoidedJob = { requestId: string };

/** To the signers who had not signed: the firm withdrew the request. */
export async function signatureVoidedMail(deps: AppDeps, job: SignatureVoidedJob): Promise<Outgoing | null> {
  const request = await findRequestById(deps.db, job.requestId);
  if (!request || request.status !== "voided") return null;
  const waiting = (await listSigners(deps.db, [request.id])).filter((s) => s.status === "pending");
  if (waiting.length === 0) return null;
  const firm = await firmName(deps);
  const body = composeEmail({
    firmName: firm,
    heading: "A signature request was withdrawn",
    paragraphs: [`${firm} withdrew its request to sign "${oneLine(request.title, 200)}". There is nothing for you to sign.`],
    details: [["Document", request.title]],
  });
  return { message: { to: waiting.map((s) => s.email).join(", "), subject: `Withdrawn: ${oneLine(request.title, 80)} - ${firm}`, ...body } };
}
