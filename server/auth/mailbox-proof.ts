// Proofs of the mailbox (docs/security.md, Round 3): Google vouching for the address, an accepted
// invitation, a password reset by email. Registration never proves the address, so an account
// whose address was never proven may be a squatter's who registered a future client's address
// first. When such a proof reaches that account, the person proving the mailbox takes it over, and
// nothing the earlier holder set up may outlive it: every credential, every pending change, every
// session (whose message streams end with them).
import type { Db } from "../db/types.ts";
import { invalidateUserSessions } from "./session.ts";

/**
 * Whether the user is a client whose address was never proven, read under a row lock so a
 * concurrent proof waits for this one. Call it inside the transaction that carries the proof, before
 * marking it verified. Admin accounts are made by the firm's operator, never by registration, so
 * nobody squats one; and voiding an admin's second factor on a reset would let the mailbox alone in.
 */
export async function addressUnproven(tx: Db, userId: string): Promise<boolean> {
  const row = await tx.selectFrom("users").select(["email_verified_at", "is_admin"]).where("id", "=", userId).forUpdate().executeTakeFirst();
  return row !== undefined && row.email_verified_at === null && !row.is_admin;
}

/**
 * Voids everything the account's earlier holder set up: the password (the caller sets the new
 * owner's, if any), passkeys, the authenticator app and its backup codes, trusted browsers,
 * pending email changes, reset, verification and one-time login links, sign-in challenges, and every
 * session (the epoch goes up first, so a sign-in under way opens none either).
 */
export async function voidEarlierHolder(tx: Db, userId: string): Promise<void> {
  await tx.updateTable("users").set({ password_hash: null }).where("id", "=", userId).execute();
  await tx.deleteFrom("passkeys").where("user_id", "=", userId).execute();
  await tx.deleteFrom("totp_credentials").where("user_id", "=", userId).execute();
  await tx.deleteFrom("backup_codes").where("user_id", "=", userId).execute();
  await tx.deleteFrom("trusted_devices").where("user_id", "=", userId).execute();
  await tx.deleteFrom("known_sign_ins").where("user_id", "=", userId).execute();
  await voidPendingEmailChanges(tx, userId);
  await tx.deleteFrom("password_reset_tokens").where("user_id", "=", userId).execute();
  await tx.deleteFrom("email_verification_tokens").where("user_id", "=", userId).execute();
  await tx.deleteFrom("login_codes").where("user_id", "=", userId).execute();
  await tx.deleteFrom("two_factor_challenges").where("user_id", "=", userId).execute();
  await tx.deleteFrom("webauthn_challenges").where("user_id", "=", userId).execute();
  await invalidateUserSessions(tx, userId);
}

/**
 * A change of address asked but not yet confirmed stops: its links (to the new address, and the
 * one to stop it) no longer work, and the mail not yet sent for it finds nothing to send.
 */
export async function voidPendingEmailChanges(tx: Db, userId: string): Promise<number> {
  const result = await tx.deleteFrom("email_changes").where("user_id", "=", userId).where("confirmed_at", "is", null).executeTakeFirst();
  return Number(result.numDeletedRows);
}
