// The second step of a sign-in (docs/security.md, Two-factor sign-in): the challenge a right
// password (or Google) answered, and a code from the authenticator app or a backup code. A wrong
// code counts toward the same lockout as a wrong password; the challenge lives 5 minutes and is
// spent by the code that completes it. An account that must have a second factor and has none
// gets an enrolment challenge instead, which sets up the app and then signs in.
import { TRPCError } from "@trpc/server";
import { findTwoFactorChallenge, spendTwoFactorChallenge, type TwoFactorChallenge, useSecondFactor } from "../../auth/second-factor.ts";
import { deviceTokens, findTrustedDevice } from "../../auth/trusted-devices.ts";
import type { Context } from "../../trpc/context.ts";
import { enableTotp, setUpTotp } from "../profile/two-factor.ts";
import type { TwoFactorSetup } from "../profile/schemas.ts";
import { SIGN_IN_EXPIRED } from "./messages.ts";
import { findUserById } from "./queries.ts";
import { INVALID_CODE, type PublicUser, type SignedIn } from "./schemas.ts";
import { beginLoginAttempt, type CarriedSession, finishSignIn, recordSignInFailure } from "./service.ts";

const expired = () => new TRPCError({ code: "UNAUTHORIZED", message: SIGN_IN_EXPIRED });

async function challengeAndUser(
  ctx: Context,
  token: string,
  purpose: "verify" | "enrol",
): Promise<{ challenge: TwoFactorChallenge; user: PublicUser }> {
  const challenge = await findTwoFactorChallenge(ctx.db, token, purpose, ctx.signInBrowserSecret, ctx.now());
  const user = challenge ? await findUserById(ctx.db, challenge.userId) : undefined;
  if (!challenge || !user) throw expired();
  if (challenge.kind === "admin" && !user.is_admin) throw new TRPCError({ code: "FORBIDDEN", message: "Admin access required" });
  return { challenge, user };
}

export async function loginTwoFactor(ctx: Context & CarriedSession, input: { challenge: string; code: string }): Promise<SignedIn> {
  const { challenge, user } = await challengeAndUser(ctx, input.challenge, "verify");
  const devices = deviceTokens(ctx.deviceCookie.value);
  const trustedDevice = await findTrustedDevice(ctx.db, devices, user.id, ctx.now());
  const attempt = await beginLoginAttempt(ctx, { account: user.id, trustedDevice }, user);
  // The code and the challenge are spent together: a challenge used meanwhile gives the code back.
  const accepted = await ctx.db.transaction().execute(async (tx) => {
    if (!(await useSecondFactor(tx, ctx.config.totpEncryptionKey, user.id, input.code, ctx.now()))) return false;
    if (!(await spendTwoFactorChallenge(tx, challenge.idHash, ctx.now()))) throw expired();
    return true;
  });
  if (!accepted) {
    await recordSignInFailure(ctx, user, user.username ?? user.email, "wrong_code");
    throw new TRPCError({ code: "UNAUTHORIZED", message: INVALID_CODE });
  }
  await attempt.succeeded();
  return finishSignIn(ctx, user, challenge.kind, {
    sessionEpoch: challenge.sessionEpoch,
    devices,
    trustedDevice,
    secondFactor: true,
  });
}

/** A key for the authenticator app of an account that must enrol before it signs in. */
export async function enrolmentSetup(ctx: Context, input: { challenge: string }): Promise<TwoFactorSetup> {
  const { user } = await challengeAndUser(ctx, input.challenge, "enrol");
  return setUpTotp(ctx, user);
}

/** Turns the app on with a code from it, spends the challenge and signs in; answers the backup codes too. */
export async function enrolmentEnable(ctx: Context & CarriedSession, input: { challenge: string; code: string }) {
  const { challenge, user } = await challengeAndUser(ctx, input.challenge, "enrol");
  const backupCodes = await enableTotp(ctx, user.id, input.code, async (tx) => {
    if (!(await spendTwoFactorChallenge(tx, challenge.idHash, ctx.now()))) throw expired();
  });
  const signedIn = await finishSignIn(ctx, user, challenge.kind, {
    sessionEpoch: challenge.sessionEpoch,
    secondFactor: true,
  });
  return { ...signedIn, backup_codes: backupCodes };
}
