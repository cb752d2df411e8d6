import { z } from "zod";
import { router } from "../../trpc/init.ts";
import { clientProcedure, publicProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { idInput } from "../shared-schemas.ts";
import {
  adminSignatureListItem,
  adminSignatureRequestOutput,
  remindOutput,
  clientSignatureRequestOutput,
  consentInput,
  createSignatureRequestInput,
  declineInput,
  inPersonInput,
  sealVerificationOutput,
  signatureListInput,
  signInput,
  verifyInput,
  verifyOutput,
  verifyStartOutput,
  voidInput,
} from "./schemas.ts";
import {
  adminSignatureRequest,
  createSignatureRequest,
  listSignatureRequestsForFirm,
  recordInPersonCheck,
  remindSigners,
  voidSignatureRequest,
} from "./firm-service.ts";
import {
  checkIdentity,
  consentToDisclosure,
  declineSignature,
  getOwnSignatureRequest,
  listOwnSignatureRequests,
  ownSignatureDocument,
  signRequest,
  startIdentityCheck,
} from "./service.ts";
import { verifySealedPdf } from "./verify.ts";

/** The signer's side: the current account's requests on which the caller signs. */
export const signaturesRouter = router({
  list: clientProcedure.output(clientSignatureRequestOutput.array()).query(({ ctx }) => listOwnSignatureRequests(ctx)),
  get: clientProcedure
    .input(idInput)
    .output(clientSignatureRequestOutput)
    .query(({ ctx, input }) => getOwnSignatureRequest(ctx, input)),
  consent: clientProcedure
    .input(consentInput)
    .output(clientSignatureRequestOutput)
    .mutation(({ ctx, input }) => consentToDisclosure(ctx, input)),
  decline: clientProcedure
    .input(declineInput)
    .output(clientSignatureRequestOutput)
    .mutation(({ ctx, input }) => declineSignature(ctx, input)),
  verifyStart: clientProcedure
    .input(idInput)
    .output(verifyStartOutput)
    .mutation(({ ctx, input }) => startIdentityCheck(ctx, input)),
  verify: clientProcedure
    .input(verifyInput)
    .output(verifyOutput)
    .mutation(({ ctx, input }) => checkIdentity(ctx, input)),
  sign: clientProcedure
    .input(signInput)
    .output(clientSignatureRequestOutput)
    .mutation(({ ctx, input }) => signRequest(ctx, input)),
});

/**
 * The firm sub-router `admin.signatures`: `admin.signatures.list`, `admin.signatures.get`,
 * `admin.signatures.create`, `admin.signatures.void`, `admin.signatures.remind`,
 * `admin.signatures.recordInPerson`. The `requests` right: a signature request is the firm asking a
 * client for something, as a document request is (docs/decisions.md, "Signatures").
 */
export const signaturesFirmRouter = router({
  list: staffProcedure("requests")
    .input(signatureListInput)
    .output(adminSignatureListItem.array())
    .query(({ ctx, input }) => listSignatureRequestsForFirm(ctx, input)),
  get: staffProcedure("requests")
    .input(idInput)
    .output(adminSignatureRequestOutput)
    .query(({ ctx, input }) => adminSignatureRequest(ctx, input.id)),
  create: staffProcedure("requests")
    .input(createSignatureRequestInput)
    .output(adminSignatureRequestOutput)
    .mutation(({ ctx, input }) => createSignatureRequest(ctx, input)),
  void: staffProcedure("requests")
    .input(voidInput)
    .output(adminSignatureRequestOutput)
    .mutation(({ ctx, input }) => voidSignatureRequest(ctx, input)),
  remind: staffProcedure("requests")
    .input(idInput)
    .output(remindOutput)
    .mutation(({ ctx, input }) => remindSigners(ctx, input)),
  recordInPerson: staffProcedure("requests")
    .input(inPersonInput)
    .output(adminSignatureRequestOutput)
    .mutation(({ ctx, input }) => recordInPersonCheck(ctx, input)),
});

/** Bytes in and out: called by the REST layer only (the transfer router), never served at /trpc. */
export const signatureTransfersRouter = router({
  document: clientProcedure.input(idInput).query(({ ctx, input }) => ownSignatureDocument(ctx, input)),
  verifyPdf: publicProcedure
    .input(z.object({ pdf: z.instanceof(Buffer) }))
    .output(sealVerificationOutput)
    .mutation(({ ctx, input }) => verifySealedPdf(ctx.db, input.pdf)),
});
