// Turning the authenticator app on and off (docs/security.md, Two-factor sign-in). Setting up makes
// a key and shows it once (as text and as a QR code); it is on only once a code from the app
// proves the app has it. Turning it on answers 10 backup codes, shown once and stored as SHA-256.
import { TRPCError } from "@trpc/server";
import type { Transaction } from "kysely";
import QRCode from "qrcode";
import { voidPendingEmailChanges } from "../../auth/mailbox-proof.ts";
import { generateBackupCodes, hasTwoFactor, normalizeCode, replaceBackupCodes, findTotpCredential } from "../../auth/second-factor.ts";
import { generateTotpKey, matchTotpStep, openTotpKey, sealTotpKey, totpKeyText, totpKeyUri } from "../../auth/totp.ts";
import type { Database } from "../../db/types.ts";
import type { AuthedContext, Context } from "../../trpc/context.ts";
import { RequestRefused } from "../../trpc/errors.ts";
import { INVALID_CODE } from "../auth/schemas.ts";
import { firmName } from "../site/service.ts";
import { checkOwnership, requireFreshProof } from "./identity.ts";
import { clientTwoFactorRequired, deleteTwoFactor, enableTotpCredential, findCredentials, storeUnconfirmedTotp } from "./queries.ts";
import type { TwoFactorSetup } from "./schemas.ts";

const ALREADY_ON = "Two-factor sign-in is already on";
const NOT_ON = "Two-factor sign-in is not on";
const SET_UP_FIRST = "Set up two-factor sign-in first";
const ADMINS_KEEP_IT = "Admin accounts must keep two-factor sign-in";
const FIRM_REQUIRES_IT = "The firm requires two-factor sign-in for every client";

/** Whether the user may not turn it off: admins always, clients when the firm requires it. */
export async function twoFactorRequired(ctx: Pick<Context, "db">, user: { is_admin: boolean }): Promise<boolean> {
  return user.is_admin || (await clientTwoFactorRequired(ctx.db));
}

/**
 * A new key for the user's app, replacing one set up earlier but never confirmed. The key goes to
 * the caller now and never again.
 */
export async function setUpTotp(ctx: Context, user: { id: string; username: string | null; email: string }): Promise<TwoFactorSetup> {
  const key = generateTotpKey();
  const now = ctx.now();
  const secret = sealTotpKey(key, ctx.config.totpEncryptionKey);
  if (!(await storeUnconfirmedTotp(ctx.db, { userId: user.id, secret, now }))) throw new TRPCError({ code: "CONFLICT", message: ALREADY_ON });
  const otpauthUrl = totpKeyUri(await firmName(ctx), user.username ?? user.email, key);
  return {
    secret: totpKeyText(key),
    otpauth_url: otpauthUrl,
    qr_svg: await QRCode.toString(otpauthUrl, { type: "svg", margin: 1, errorCorrectionLevel: "M" }),
  };
}

/**
 * Turns the app on once `code` shows it holds the key set up last, and answers new backup codes.
 * `alsoInTransaction` runs in the same transaction (the sign-in that enrols spends its challenge
 * there), and the owner's notice is queued in it.
 */
export async function enableTotp(
  ctx: Context,
  userId: string,
  code: string,
  alsoInTransaction?: (tx: Transaction<Database>) => Promise<void>,
): Promise<string[]> {
  const credential = await findTotpCredential(ctx.db, userId);
  if (!credential) throw new RequestRefused(SET_UP_FIRST);
  if (credential.enabled_at) throw new TRPCError({ code: "CONFLICT", message: ALREADY_ON });
  const step = matchTotpStep(openTotpKey(credential.secret, ctx.config.totpEncryptionKey), normalizeCode(code), ctx.now(), null);
  if (step === null) throw new RequestRefused(INVALID_CODE);
  const codes = generateBackupCodes();
  await ctx.db.transaction().execute(async (tx) => {
    // Turned on, or set up anew, by another request meanwhile.
    if (!(await enableTotpCredential(tx, { userId, secret: credential.secret, step, now: ctx.now() })))
      throw new TRPCError({ code: "CONFLICT", message: ALREADY_ON });
    await replaceBackupCodes(tx, userId, codes, ctx.now());
    // A change of the second factor voids a pending email change (docs/security.md, Round 3).
    await voidPendingEmailChanges(tx, userId);
    await alsoInTransaction?.(tx);
    await ctx.jobs.send("email", { kind: "account-security", userId, event: "two-factor-enabled" }, { tx });
  });
  return codes;
}

/** Both steps need a fresh proof (identity.ts): a second factor chosen at a bare session could lock the owner out. */
export async function setUpOwnTotp(ctx: AuthedContext): Promise<TwoFactorSetup> {
  await requireFreshProof(ctx);
  return setUpTotp(ctx, ctx.user);
}

export async function enableOwnTotp(ctx: AuthedContext, input: { code: string }) {
  await requireFreshProof(ctx);
  return { success: true as const, backup_codes: await enableTotp(ctx, ctx.user.id, input.code) };
}

/** Needs the password (for an account that has one) and a code; refused to admins and while the firm requires it. */
export async function disableTwoFactor(ctx: AuthedContext, input: { password?: string; code: string }) {
  if (ctx.user.is_admin) throw new RequestRefused(ADMINS_KEEP_IT);
  if (await clientTwoFactorRequired(ctx.db)) throw new RequestRefused(FIRM_REQUIRES_IT);
  if (!(await hasTwoFactor(ctx.db, ctx.user.id))) throw new RequestRefused(NOT_ON);
  const credentials = await findCredentials(ctx.db, ctx.user.id);
  await checkOwnership(ctx, input, { password: Boolean(credentials?.password_hash), code: true });
  await ctx.db.transaction().execute(async (tx) => {
    await deleteTwoFactor(tx, ctx.user.id);
    await voidPendingEmailChanges(tx, ctx.user.id);
    await ctx.jobs.send("email", { kind: "account-security", userId: ctx.user.id, event: "two-factor-disabled" }, { tx });
  });
  return { success: true as const };
}

/** New backup codes for old ones (all of them stop working); needs a code. */
export async function regenerateBackupCodes(ctx: AuthedContext, input: { code: string }) {
  if (!(await hasTwoFactor(ctx.db, ctx.user.id))) throw new RequestRefused(NOT_ON);
  await checkOwnership(ctx, input, { password: false, code: true });
  const codes = generateBackupCodes();
  await ctx.db.transaction().execute((tx) => replaceBackupCodes(tx, ctx.user.id, codes, ctx.now()));
  return { success: true as const, backup_codes: codes };
}
