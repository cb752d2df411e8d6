// Signatures over REST (issue 35; docs/decisions.md, "Signatures"): the firm's requests under
// /admin/signature-requests, the signer's under /signature-requests, and the public check of a
// sealed PDF, POST /signatures/verify, which reads one multipart file ("file", at most 25 MB).
import type { RequestHandler } from "express";
import { z } from "zod";
import { createTransferCaller } from "../domains/_app.ts";
import {
  adminSignatureListItem,
  adminSignatureRequestOutput,
  remindOutput,
  clientSignatureRequestOutput,
  consentBody,
  createSignatureRequestInput,
  declineBody,
  inPersonBody,
  sealVerificationOutput,
  signatureListInput,
  signBody,
  verifyBody,
  verifyOutput,
  verifyStartOutput,
  voidBody,
} from "../domains/signatures/schemas.ts";
import type { AppDeps } from "../trpc/context.ts";
import { downloadRoute } from "./download.ts";
import { createRequestContext } from "./handler.ts";
import { bodyOf, procedureRoute, type RestRoute } from "./route.ts";
import { oneFileFormHandler, type OneFileForm } from "./one-file-form.ts";

/** The PDF to verify: one file in the field "file", at most 25 MB. */
const verifyForm: OneFileForm = { field: "file", maxBytes: 25 * 1024 * 1024, tooLarge: "The PDF must be at most 25 MB", what: "the PDF" };

function verifyHandler(deps: AppDeps): RequestHandler {
  // Counted per address before the PDF is read (rate-limit.ts, sealVerifications).
  const form: OneFileForm = { ...verifyForm, admit: (req) => deps.rateLimits.consumeSealVerification(req.ip ?? "unknown") };
  return oneFileFormHandler(deps, form, async (req, res, { file }) => {
    const answer = await createTransferCaller(createRequestContext(deps, req, res)).signatures.verifyPdf({ pdf: file });
    res.status(200).json(answer);
  });
}

const pdfReply = { description: "The PDF (the original while the request is open, the sealed one once completed)", contentType: "application/pdf" };

export const signatureRoutes: RestRoute[] = [
  procedureRoute({
    method: "post",
    path: "/admin/signature-requests",
    summary:
      "Send one of an account's PDFs for signature: signers among the account's people ([{ user_id }]), parallel or sequential order, fields placed as fractions of their page ([{ signer, type, page, x, y, width, height, required }]); the signers are mailed",
    tag: "admin",
    access: "admin",
    body: createSignatureRequestInput,
    response: adminSignatureRequestOutput,
    status: 201,
    call: (c, r) => c.admin.signatures.create(r.body),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/signature-requests",
    summary: "The firm's signature requests, newest first, by account (account_id) and status",
    tag: "admin",
    access: "admin",
    query: signatureListInput,
    response: z.array(adminSignatureListItem),
    call: (c, r) => c.admin.signatures.list({ account_id: r.query.account_id, status: r.query.status }),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/signature-requests/:id",
    summary: "One signature request: each signer's progress and evidence, the fields and the request's audit events",
    tag: "admin",
    access: "admin",
    response: adminSignatureRequestOutput,
    call: (c, r) => c.admin.signatures.get({ id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/signature-requests/:id/void",
    summary: "Withdraw an open signature request (reason optional); the signers still to sign are mailed",
    tag: "admin",
    access: "admin",
    body: voidBody,
    response: adminSignatureRequestOutput,
    call: (c, r) => c.admin.signatures.void({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/signature-requests/:id/remind",
    summary:
      "Mail a reminder to the signers whose turn it is and who have signed up, each at most once in 24 hours; `reminded` counts those mailed (409 when nobody is waiting, or only invited people who have not signed up; 429 when all of them were reminded within 24 hours, or past the sender's hourly mail to clients)",
    tag: "admin",
    access: "admin",
    response: remindOutput,
    call: (c, r) => c.admin.signatures.remind({ id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/signature-requests/:id/signers/:index/in-person",
    summary:
      "Record that a signer is signing in person and the staff member checked their photo ID (id_document: which one): the identity check a Form 8879 needs without a KBA provider",
    tag: "admin",
    access: "admin",
    body: inPersonBody,
    response: adminSignatureRequestOutput,
    call: (c, r) => c.admin.signatures.recordInPerson({ ...bodyOf(r), id: r.params.id, index: r.params.index }),
  }),
  procedureRoute({
    method: "get",
    path: "/signature-requests",
    summary: "The caller's signature requests in the current account, open ones first, each with the caller's own fields",
    tag: "signatures",
    access: "client",
    response: z.array(clientSignatureRequestOutput),
    call: (c) => c.signatures.list(),
  }),
  procedureRoute({
    method: "get",
    path: "/signature-requests/:id",
    summary:
      "One of the caller's signature requests: its status, every signer's progress, the caller's own fields and the ESIGN disclosure to agree to",
    tag: "signatures",
    access: "client",
    response: clientSignatureRequestOutput,
    call: (c, r) => c.signatures.get({ id: r.params.id }),
  }),
  {
    method: "get",
    path: "/signature-requests/:id/document",
    summary: "The request's PDF: the original while it is open, the sealed one once completed",
    tag: "signatures",
    access: "client",
    response: pdfReply,
    handler: downloadRoute((transfers, id) => transfers.signatures.document({ id })),
  },
  procedureRoute({
    method: "post",
    path: "/signature-requests/:id/consent",
    summary: "Agree to do business electronically: the ESIGN disclosure of this version (disclosure_version), recorded with the time and IP",
    tag: "signatures",
    access: "client",
    body: consentBody,
    response: clientSignatureRequestOutput,
    call: (c, r) => c.signatures.consent({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/signature-requests/:id/decline",
    summary: "Decline to sign (reason): the request ends and the firm is mailed",
    tag: "signatures",
    access: "client",
    body: declineBody,
    response: clientSignatureRequestOutput,
    call: (c, r) => c.signatures.decline({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/signature-requests/:id/verify/start",
    summary:
      "Start the identity check: a 6-digit code mailed to the signer (once a minute); a Form 8879 needs a KBA provider (409 saying so while none is configured)",
    tag: "signatures",
    access: "client",
    response: verifyStartOutput,
    call: (c, r) => c.signatures.verifyStart({ id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/signature-requests/:id/verify",
    summary: "Finish the identity check with the emailed code, or a code of the signer's own second factor (authenticator app or backup code)",
    tag: "signatures",
    access: "client",
    body: verifyBody,
    response: verifyOutput,
    call: (c, r) => c.signatures.verify({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/signature-requests/:id/sign",
    summary:
      'Sign: values of the caller\'s fields ({ "<field id>": "..." }) and the signature ({ type: "typed", text } or { type: "drawn", image: PNG data URL }); 422 naming required fields left empty. The last signature seals the PDF',
    tag: "signatures",
    access: "client",
    body: signBody,
    response: clientSignatureRequestOutput,
    call: (c, r) => c.signatures.sign({ ...bodyOf(r), id: r.params.id }),
  }),
  {
    method: "post",
    path: "/signatures/verify",
    summary:
      'Whether a PDF (multipart, field "file") was sealed by this portal and is unaltered, with its request and signers (at most 20 checks in 10 minutes from one address: 429)',
    tag: "signatures",
    access: "public",
    body: { multipart: z.object({ file: z.string().describe("The PDF") }) },
    response: sealVerificationOutput,
    handler: verifyHandler,
  },
];
