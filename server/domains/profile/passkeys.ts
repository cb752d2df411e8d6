// Passkeys of the signed-in user (docs/security.md, Passkeys): registered from the settings page as
// discoverable credentials with user verification, so that one alone signs in (both factors).
import type {
  AuthenticatorTransportFuture,
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
  VerifiedRegistrationResponse,
} from "@simplewebauthn/server";
import { TRPCError } from "@trpc/server";
import { challengeOf, pruneRegistrationChallenges, storeWebauthnChallenge, takeWebauthnChallenge, WEBAUTHN_TIMEOUT_MS } from "../../auth/webauthn.ts";
import { isPgError, UNIQUE_VIOLATION } from "../../db/errors.ts";
import type { AuthedContext } from "../../trpc/context.ts";
import { RequestRefused } from "../../trpc/errors.ts";
import { firmName } from "../site/service.ts";
import { requireFreshProof } from "./identity.ts";
import { deletePasskeyOf, insertPasskey, listPasskeyCredentials, listPasskeys } from "./queries.ts";
import type { PasskeyInfo, registerPasskeyInput } from "./schemas.ts";
import type { z } from "zod";

const PASSKEY_NOT_FOUND = "Passkey not found";
const PASSKEY_NOT_REGISTERED = "The passkey could not be registered. Please try again.";
/** Enough for a phone, a laptop and a security key or two; each is a row and a line in the list. */
const MAX_PASSKEYS_PER_USER = 10;

export async function passkeys(ctx: AuthedContext): Promise<PasskeyInfo[]> {
  return listPasskeys(ctx.db, ctx.user.id);
}

/** Options for the browser's `navigator.credentials.create()`, with a fresh challenge; needs a fresh proof (identity.ts). */
export async function passkeyRegistrationOptions(ctx: AuthedContext): Promise<PublicKeyCredentialCreationOptionsJSON> {
  await requireFreshProof(ctx);
  const existing = await listPasskeyCredentials(ctx.db, ctx.user.id);
  if (existing.length >= MAX_PASSKEYS_PER_USER) throw new RequestRefused(`At most ${MAX_PASSKEYS_PER_USER} passkeys: remove one first`);
  // The WebAuthn library is loaded at its first use, not with the app (docs/performance.md, "The test suite's time").
  const { generateRegistrationOptions } = await import("@simplewebauthn/server");
  const options = await generateRegistrationOptions({
    rpName: await firmName(ctx),
    rpID: ctx.config.webauthn.rpId,
    userName: ctx.user.username ?? ctx.user.email,
    userDisplayName: ctx.user.name,
    userID: new TextEncoder().encode(ctx.user.id),
    attestationType: "none",
    timeout: WEBAUTHN_TIMEOUT_MS,
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await ctx.db.transaction().execute(async (tx) => {
    await storeWebauthnChallenge(tx, { value: options.challenge, purpose: "register", userId: ctx.user.id }, ctx.now());
    await pruneRegistrationChallenges(tx, ctx.user.id, ctx.now());
  });
  return options;
}

/** Checks the browser's answer against the challenge made for this user, and keeps the new passkey. */
export async function registerPasskey(ctx: AuthedContext, input: z.infer<typeof registerPasskeyInput>): Promise<PasskeyInfo> {
  const proof = await requireFreshProof(ctx);
  const response = input.response as RegistrationResponseJSON;
  const challenge = challengeOf(response.response.clientDataJSON);
  const stored = challenge ? await takeWebauthnChallenge(ctx.db, challenge, "register", ctx.now()) : null;
  if (!challenge || !stored || stored.user_id !== ctx.user.id) throw new RequestRefused(PASSKEY_NOT_REGISTERED);
  const { verifyRegistrationResponse } = await import("@simplewebauthn/server");
  let verification: VerifiedRegistrationResponse;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: ctx.config.webauthn.origin,
      expectedRPID: ctx.config.webauthn.rpId,
      requireUserVerification: true,
    });
  } catch (err) {
    ctx.logger.info({ reason: err instanceof Error ? err.message : String(err), userId: ctx.user.id }, "passkey registration refused");
    throw new RequestRefused(PASSKEY_NOT_REGISTERED);
  }
  if (!verification.verified) throw new RequestRefused(PASSKEY_NOT_REGISTERED);
  const { credential } = verification.registrationInfo;
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      const passkey = await insertPasskey(tx, {
        user_id: ctx.user.id,
        credential_id: credential.id,
        public_key: credential.publicKey,
        counter: credential.counter,
        transports: (credential.transports ?? []).join(","),
        name: input.name,
        created_at: ctx.now(),
        proven: true,
        second_factor_proven: proof.secondFactor,
      });
      await ctx.jobs.send("email", { kind: "account-security", userId: ctx.user.id, event: "passkey-added" }, { tx });
      return passkey;
    });
  } catch (err) {
    if (isPgError(err, UNIQUE_VIOLATION)) throw new TRPCError({ code: "CONFLICT", message: "This passkey is already registered" });
    throw err;
  }
}

export async function deletePasskey(ctx: AuthedContext, input: { id: string }) {
  await ctx.db.transaction().execute(async (tx) => {
    const deleted = await deletePasskeyOf(tx, ctx.user.id, input.id);
    if (!deleted) throw new TRPCError({ code: "NOT_FOUND", message: PASSKEY_NOT_FOUND });
    await ctx.jobs.send("email", { kind: "account-security", userId: ctx.user.id, event: "passkey-removed" }, { tx });
  });
  return { success: true as const };
}

export function transportsOf(stored: string): AuthenticatorTransportFuture[] {
  return stored ? (stored.split(",") as AuthenticatorTransportFuture[]) : [];
}
