// "Sign in with a passkey" (docs/security.md, Passkeys): usernameless, so the options name no
// account and the browser offers the passkeys it holds for this site. A passkey with user
// verification is something the user has and something they know or are: both factors at once,
// so no code follows.
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { TRPCError } from "@trpc/server";
import type { SessionKind } from "../../auth/session.ts";
import { deviceTokens, findTrustedDevice } from "../../auth/trusted-devices.ts";
import { challengeOf, storeWebauthnChallenge, takeWebauthnChallenge, WEBAUTHN_TIMEOUT_MS } from "../../auth/webauthn.ts";
import type { Context } from "../../trpc/context.ts";
import { transportsOf } from "../profile/passkeys.ts";
import { ADMIN_PASSKEY_UNPROVEN, PASSKEY_SIGN_IN_FAILED } from "./messages.ts";
import { findPasskeyForSignIn, findUserById, recordPasskeyUse } from "./queries.ts";
import type { SignedIn } from "./schemas.ts";
import { beginLoginAttempt, type CarriedSession, finishSignIn } from "./service.ts";

const failed = () => new TRPCError({ code: "UNAUTHORIZED", message: PASSKEY_SIGN_IN_FAILED });

export async function passkeyLoginOptions(ctx: Context, input: { portal: SessionKind }): Promise<PublicKeyCredentialRequestOptionsJSON> {
  await ctx.rateLimits.consumePasskeyChallenge(ctx.ip);
  // The WebAuthn library is loaded at its first use, not with the app (docs/performance.md, "The test suite's time").
  const { generateAuthenticationOptions } = await import("@simplewebauthn/server");
  const options = await generateAuthenticationOptions({
    rpID: ctx.config.webauthn.rpId,
    userVerification: "required",
    timeout: WEBAUTHN_TIMEOUT_MS,
  });
  await storeWebauthnChallenge(ctx.db, { value: options.challenge, purpose: "login", kind: input.portal }, ctx.now());
  return options;
}

export async function passkeyLogin(
  ctx: Context & CarriedSession,
  input: { response: AuthenticationResponseJSON | Record<string, unknown> },
): Promise<SignedIn> {
  const response = input.response as AuthenticationResponseJSON;
  const challenge = challengeOf(response.response.clientDataJSON);
  const stored = challenge ? await takeWebauthnChallenge(ctx.db, challenge, "login", ctx.now()) : null;
  if (!challenge || !stored) throw failed();
  const passkey = await findPasskeyForSignIn(ctx.db, response.id);
  const devices = deviceTokens(ctx.deviceCookie.value);
  const trustedDevice = passkey ? await findTrustedDevice(ctx.db, devices, passkey.user_id, ctx.now()) : null;
  // Counted like a password: an unknown passkey against the address's limits, a known one against its account's.
  const attempt = await beginLoginAttempt(
    ctx,
    { account: passkey ? passkey.user_id : `unknown:passkey`, trustedDevice },
    passkey ? { id: passkey.user_id } : undefined,
  );
  if (!passkey) throw failed();
  let newCounter: number;
  try {
    const { verifyAuthenticationResponse } = await import("@simplewebauthn/server");
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: ctx.config.webauthn.origin,
      expectedRPID: ctx.config.webauthn.rpId,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: Number(passkey.counter),
        transports: transportsOf(passkey.transports),
      },
      requireUserVerification: true,
    });
    if (!verification.verified) throw failed();
    newCounter = verification.authenticationInfo.newCounter;
  } catch (err) {
    ctx.logger.info({ reason: err instanceof Error ? err.message : String(err), userId: passkey.user_id }, "passkey sign-in refused");
    throw failed();
  }
  await attempt.succeeded();
  await recordPasskeyUse(ctx.db, passkey.id, newCounter, ctx.now());
  const user = await findUserById(ctx.db, passkey.user_id);
  if (!user) throw failed();
  const kind = stored.kind ?? "client";
  if (kind === "admin" && !user.is_admin) throw new TRPCError({ code: "FORBIDDEN", message: "Admin access required" });
  // An admin's passkey stands for both factors only if it was added under a fresh second factor
  // (docs/security.md, Round 3): one added with a bare session or a password alone is refused.
  if (user.is_admin && !passkey.second_factor_proven) throw new TRPCError({ code: "UNAUTHORIZED", message: ADMIN_PASSKEY_UNPROVEN });
  return finishSignIn(ctx, user, kind, {
    sessionEpoch: passkey.session_epoch,
    devices,
    trustedDevice,
    secondFactor: passkey.second_factor_proven,
  });
}
