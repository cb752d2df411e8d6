// The signed-in person's own profile and sign-in settings (docs/decisions.md, Account settings and two-factor): name, email,
// password, sessions, deleting the account. Two-factor sign-in is in two-factor.ts, passkeys in passkeys.ts.
import { TRPCError } from "@trpc/server";
import { personClient, recordActivity } from "../activity/record.ts";
import { voidPendingEmailChanges } from "../../auth/mailbox-proof.ts";
import { hashPassword } from "../../auth/password.ts";
import { countUnusedBackupCodes, findTotpCredential } from "../../auth/second-factor.ts";
import { hashToken, invalidateOtherSessions, invalidateUserSessions } from "../../auth/session.ts";
import { describeUserAgent } from "../../auth/sign-ins.ts";
import { isPgError, UNIQUE_VIOLATION } from "../../db/errors.ts";
import type { AuthedContext, Context } from "../../trpc/context.ts";
import { RequestRefused } from "../../trpc/errors.ts";
import { ADMIN_NOT_DELETABLE, deleteUser } from "../admin/service.ts";
import { deleteEmailVerificationTokens, deletePasswordResetTokens, findSessionEpoch, findUserByEmail, setPasswordHash } from "../auth/queries.ts";
import type { Language, PublicUser } from "../auth/schemas.ts";
import { assertPasswordAllowed, EMAIL_TAKEN, startSession } from "../auth/service.ts";
import { checkOwnership, confirmIdentity, type Proof } from "./identity.ts";
import {
  deleteSessionByPublicId,
  deleteUnconfirmedEmailChange,
  deleteUnprovenPasskeys,
  findCredentials,
  findPendingEmailChange,
  insertEmailChange,
  listSessions,
  moveEmail,
  setUserLanguage,
  setUserName,
  takeEmailChange,
} from "./queries.ts";
import {
  type AccountOverview,
  type ChangeEmailInput,
  type ChangePasswordInput,
  INVALID_EMAIL_CHANGE_CANCEL_LINK,
  INVALID_EMAIL_CHANGE_LINK,
  type SessionInfo,
} from "./schemas.ts";
import { twoFactorRequired } from "./two-factor.ts";

const NO_PASSWORD_YET = "Your account has no password yet. Use “Forgot your password?” when signing in to set one.";
const SAME_EMAIL = "That is already the email address of your account";
const SESSION_NOT_FOUND = "Session not found";

export async function accountOverview(ctx: AuthedContext): Promise<AccountOverview> {
  const [credentials, totp, backupCodesLeft, required, pending] = await Promise.all([
    findCredentials(ctx.db, ctx.user.id),
    findTotpCredential(ctx.db, ctx.user.id),
    countUnusedBackupCodes(ctx.db, ctx.user.id),
    twoFactorRequired(ctx, ctx.user),
    findPendingEmailChange(ctx.db, ctx.user.id, ctx.now()),
  ]);
  const enabledAt = totp?.enabled_at ?? null;
  return {
    user: ctx.user,
    has_password: Boolean(credentials?.password_hash),
    pending_email: pending?.new_email ?? null,
    two_factor: { enabled: enabledAt !== null, enabled_at: enabledAt, backup_codes_left: enabledAt ? backupCodesLeft : 0, required },
  };
}

export async function updateProfile(ctx: AuthedContext, input: { name: string }): Promise<PublicUser> {
  await setUserName(ctx.db, ctx.user.id, input.name);
  return { ...ctx.user, name: input.name };
}

/** The person's language: their portal, emails and PDFs speak it from now on (docs/i18n.md). */
export async function updateLanguage(ctx: AuthedContext, input: { language: Language }): Promise<PublicUser> {
  await setUserLanguage(ctx.db, ctx.user.id, input.language);
  return { ...ctx.user, language: input.language };
}

/**
 * Needs the current password (a wrong one counts toward the lockout). Every session of the user
 * ends, and any sign-in under way; the caller gets a new session in place of theirs, and the owner
 * an email.
 */
export async function changePassword(ctx: AuthedContext, input: ChangePasswordInput) {
  const credentials = await findCredentials(ctx.db, ctx.user.id);
  if (!credentials?.password_hash) throw new RequestRefused(NO_PASSWORD_YET);
  assertPasswordAllowed(input.new_password, [ctx.user.username, ctx.user.email, ctx.user.name]);
  await checkOwnership(ctx, { password: input.current_password }, { password: true, code: false });
  const passwordHash = await hashPassword(input.new_password);
  const sessionEpoch = await ctx.db.transaction().execute(async (tx) => {
    await setPasswordHash(tx, ctx.user.id, passwordHash);
    await invalidateUserSessions(tx, ctx.user.id);
    await deletePasswordResetTokens(tx, ctx.user.id);
    // Someone who held the old password may have asked to move the address (docs/security.md, Round 3).
    await voidPendingEmailChanges(tx, ctx.user.id);
    // Passkeys added with a bare session, before fresh proofs were asked, go with the old password.
    await deleteUnprovenPasskeys(tx, ctx.user.id);
    await ctx.jobs.send("email", { kind: "account-security", userId: ctx.user.id, event: "password-changed" }, { tx });
    await recordActivity(tx, ctx, { action: "auth.password_change", client: ctx.user.is_admin ? null : personClient(ctx.user) });
    return findSessionEpoch(tx, ctx.user.id);
  });
  const signedIn = await startSession({ ...ctx, session: null }, ctx.user, ctx.session.kind, { sessionEpoch });
  return signedIn.session_token ? { success: true as const, session_token: signedIn.session_token } : { success: true as const };
}

/**
 * The new address gets a link (1 hour, single use); the change happens when it is followed, and the
 * old address is then told. Needs the owner's proof (identity.ts).
 */
export async function changeEmail(ctx: AuthedContext, input: ChangeEmailInput) {
  const newEmail = input.new_email;
  if (newEmail.toLowerCase() === ctx.user.email.toLowerCase()) throw new RequestRefused(SAME_EMAIL);
  await ctx.rateLimits.consumeEmailChange(ctx.user.id);
  if (await findUserByEmail(ctx.db, newEmail)) throw new TRPCError({ code: "CONFLICT", message: EMAIL_TAKEN });
  await confirmIdentity(ctx, input);
  await ctx.db.transaction().execute(async (tx) => {
    const changeId = await insertEmailChange(tx, {
      user_id: ctx.user.id,
      old_email: ctx.user.email,
      old_email_verified: ctx.user.email_verified,
      new_email: newEmail,
      created_at: ctx.now(),
    });
    await ctx.jobs.send("email", { kind: "email-change", changeId }, { tx });
    await ctx.jobs.send("email", { kind: "email-change-requested", changeId }, { tx });
  });
  return { success: true as const };
}

/**
 * The link in the notice to the current address: the change it names stops (its link to the new
 * address no longer works). Public, since the owner may not be able to sign in; the token is the
 * proof, and a spent, unknown or confirmed one answers the same.
 */
export async function cancelEmailChange(ctx: Context, input: { token: string }) {
  const stopped = await deleteUnconfirmedEmailChange(ctx.db, hashToken(input.token));
  if (!stopped) throw new TRPCError({ code: "BAD_REQUEST", message: INVALID_EMAIL_CHANGE_CANCEL_LINK });
  return { success: true as const };
}

/** Public, like the verification link: the link may open in a browser that is not signed in. */
export async function confirmEmailChange(ctx: Context, input: { token: string }) {
  const invalid = () => new TRPCError({ code: "BAD_REQUEST", message: INVALID_EMAIL_CHANGE_LINK });
  try {
    await ctx.db.transaction().execute(async (tx) => {
      const change = await takeEmailChange(tx, hashToken(input.token), ctx.now());
      if (!change?.expires_at || change.expires_at.getTime() <= ctx.now().getTime()) throw invalid();
      if (!(await moveEmail(tx, change, ctx.now()))) throw invalid();
      // Links sent to the old address stop working: whoever reads that mailbox now may not be the owner.
      await deletePasswordResetTokens(tx, change.user_id);
      await deleteEmailVerificationTokens(tx, change.user_id);
      await ctx.jobs.send("email", { kind: "email-changed", changeId: change.id }, { tx });
    });
  } catch (err) {
    if (isPgError(err, UNIQUE_VIOLATION)) throw new TRPCError({ code: "CONFLICT", message: EMAIL_TAKEN });
    throw err;
  }
  return { success: true as const };
}

/** Everything of the account goes, as when the firm deletes it (its stored files too); admins cannot. */
export async function deleteAccount(ctx: AuthedContext, input: Proof) {
  if (ctx.user.is_admin) throw new RequestRefused(ADMIN_NOT_DELETABLE);
  await confirmIdentity(ctx, input);
  await deleteUser(ctx, { id: ctx.user.id }, { by: "self" });
  ctx.cookies.clear();
  return { success: true as const };
}

export async function sessionList(ctx: AuthedContext): Promise<SessionInfo[]> {
  const rows = await listSessions(ctx.db, ctx.user.id, ctx.session.id, ctx.now());
  return rows.map((row) => ({
    id: row.public_id,
    kind: row.kind,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    ip: row.ip,
    browser: describeUserAgent(row.user_agent).label,
    current: row.current,
  }));
}

/** One of the caller's sessions; someone else's id answers like a missing one. */
export async function revokeSession(ctx: AuthedContext, input: { id: string }) {
  const deleted = await deleteSessionByPublicId(ctx.db, ctx.user.id, input.id);
  if (!deleted) throw new TRPCError({ code: "NOT_FOUND", message: SESSION_NOT_FOUND });
  if (deleted.id === ctx.session.id) ctx.cookies.clear();
  return { success: true as const };
}

/**
 * Every session but the caller's, and any sign-in of the account under way; and any pending email
 * change, which one of those sessions may have asked (docs/security.md, Round 3).
 */
export async function revokeOtherSessions(ctx: AuthedContext) {
  const ended = await ctx.db.transaction().execute(async (tx) => {
    await voidPendingEmailChanges(tx, ctx.user.id);
    return invalidateOtherSessions(tx, ctx.user.id, ctx.session.id);
  });
  return { success: true as const, ended };
}
