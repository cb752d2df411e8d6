// The second factor (docs/security.md, Two-factor sign-in): an authenticator app's codes, each
// accepted once, and single-use backup codes; and the challenge that carries a sign-in from its
// right password to its second factor (or to the enrolment an account must make first).
import { randomBytes } from "node:crypto";
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import type { Db } from "../db/types.ts";
import { generateToken, hashToken, type SessionKind } from "./session.ts";
import { matchTotpStep, openTotpKey } from "./totp.ts";

/** How long a sign-in may wait between its password and its second factor. */
export const TWO_FACTOR_CHALLENGE_MS = 5 * 60 * 1000;
const BACKUP_CODE_COUNT = 10;
const TOTP_CODE = /^\d{6}$/;
/** 10 base32 characters: 50 random bits each, shown as two groups of five. */
const BACKUP_CODE = /^[a-z2-7]{10}$/;

/** What a typed code is compared as: spaces and dashes dropped, lower case. */
export function normalizeCode(code: string): string {
  return code.replace(/[\s-]+/g, "").toLowerCase();
}

export function generateBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODE_COUNT }, () => {
    const code = encodeBase32LowerCaseNoPadding(randomBytes(7)).slice(0, 10);
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** Replaces every backup code of the user with `codes` (only their hashes are kept). */
export async function replaceBackupCodes(db: Db, userId: string, codes: string[], now: Date): Promise<void> {
  await db.deleteFrom("backup_codes").where("user_id", "=", userId).execute();
  await db
    .insertInto("backup_codes")
    .values(codes.map((code) => ({ user_id: userId, code_hash: hashToken(normalizeCode(code)), created_at: now })))
    .execute();
}

export async function findTotpCredential(db: Db, userId: string) {
  return db.selectFrom("totp_credentials").select(["secret", "enabled_at", "last_used_step"]).where("user_id", "=", userId).executeTakeFirst();
}

export async function hasTwoFactor(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("totp_credentials")
    .select("user_id")
    .where("user_id", "=", userId)
    .where("enabled_at", "is not", null)
    .executeTakeFirst();
  return row !== undefined;
}

type SecondFactorUsed = "totp" | "backup";

/**
 * Checks a code from the user's authenticator app (now or one step either side, later than the last
 * step accepted) or one of their unused backup codes, and spends it: the step is stored, the backup
 * code marked used, each by a conditional update, so of two requests with one code only one passes.
 */
export async function useSecondFactor(
  db: Db,
  encryptionKey: Buffer | null,
  userId: string,
  code: string,
  now: Date,
): Promise<SecondFactorUsed | null> {
  const normalized = normalizeCode(code);
  if (TOTP_CODE.test(normalized)) {
    const credential = await findTotpCredential(db, userId);
    if (!credential?.enabled_at) return null;
    const step = matchTotpStep(openTotpKey(credential.secret, encryptionKey), normalized, now, credential.last_used_step);
    if (step === null) return null;
    const accepted = await db
      .updateTable("totp_credentials")
      .set({ last_used_step: step })
      .where("user_id", "=", userId)
      .where("enabled_at", "is not", null)
      .where((eb) => eb.or([eb("last_used_step", "is", null), eb("last_used_step", "<", step)]))
      .executeTakeFirst();
    return accepted.numUpdatedRows > 0n ? "totp" : null;
  }
  if (BACKUP_CODE.test(normalized)) {
    const used = await db
      .updateTable("backup_codes")
      .set({ used_at: now })
      .where("user_id", "=", userId)
      .where("code_hash", "=", hashToken(normalized))
      .where("used_at", "is", null)
      .executeTakeFirst();
    return used.numUpdatedRows > 0n ? "backup" : null;
  }
  return null;
}

export async function countUnusedBackupCodes(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom("backup_codes")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type ChallengePurpose = "verify" | "enrol";

type NewChallenge = {
  userId: string;
  purpose: ChallengePurpose;
  kind: SessionKind;
  /** The user's session epoch when the first factor was checked: a reset in between voids the challenge. */
  sessionEpoch: number;
  /** For a Google sign-in: the secret of the cookie of the browser that finished it. */
  browserSecret?: string;
};

/** A random challenge for the client; the table keeps its SHA-256. Older expired ones of the user go. */
export async function createTwoFactorChallenge(db: Db, challenge: NewChallenge, now: Date): Promise<string> {
  const token = generateToken();
  await db.deleteFrom("two_factor_challenges").where("user_id", "=", challenge.userId).where("expires_at", "<=", now).execute();
  await db
    .insertInto("two_factor_challenges")
    .values({
      id_hash: hashToken(token),
      user_id: challenge.userId,
      purpose: challenge.purpose,
      kind: challenge.kind,
      session_epoch: challenge.sessionEpoch,
      browser_hash: challenge.browserSecret ? hashToken(challenge.browserSecret) : null,
      expires_at: new Date(now.getTime() + TWO_FACTOR_CHALLENGE_MS),
      created_at: now,
    })
    .execute();
  return token;
}

export type TwoFactorChallenge = {
  idHash: string;
  userId: string;
  kind: SessionKind;
  sessionEpoch: number;
};

/**
 * A challenge of `purpose` that is unused and unexpired, and (for one bound to a browser) presented
 * by that browser; undefined otherwise.
 */
export async function findTwoFactorChallenge(
  db: Db,
  token: string,
  purpose: ChallengePurpose,
  browserSecret: string | null,
  now: Date,
): Promise<TwoFactorChallenge | undefined> {
  // Only while the account's session epoch is the one read with the password: a reset (or anything
  // else that ends every session) since then voids the challenge before any code or enrolment is
  // spent on it, not only when the session would be opened.
  const row = await db
    .selectFrom("two_factor_challenges")
    .innerJoin("users", (join) =>
      join.onRef("users.id", "=", "two_factor_challenges.user_id").onRef("users.session_epoch", "=", "two_factor_challenges.session_epoch"),
    )
    .select([
      "two_factor_challenges.id_hash",
      "two_factor_challenges.user_id",
      "two_factor_challenges.kind",
      "two_factor_challenges.session_epoch",
      "two_factor_challenges.browser_hash",
    ])
    .where("two_factor_challenges.id_hash", "=", hashToken(token))
    .where("two_factor_challenges.purpose", "=", purpose)
    .where("two_factor_challenges.used_at", "is", null)
    .where("two_factor_challenges.expires_at", ">", now)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.browser_hash !== null && (!browserSecret || hashToken(browserSecret) !== row.browser_hash)) return undefined;
  return { idHash: row.id_hash, userId: row.user_id, kind: row.kind, sessionEpoch: row.session_epoch };
}

/** Marks the challenge used; false when another request used it first (or it expired meanwhile). */
export async function spendTwoFactorChallenge(db: Db, idHash: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("two_factor_challenges")
    .set({ used_at: now })
    .where("id_hash", "=", idHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Sign-in steps past their end (used or not); a used one is kept only until then, to say so. */
export async function deleteExpiredSignInChallenges(db: Db, now: Date): Promise<number> {
  const [twoFactor, webauthn] = await Promise.all([
    db.deleteFrom("two_factor_challenges").where("expires_at", "<=", now).executeTakeFirst(),
    db.deleteFrom("webauthn_challenges").where("expires_at", "<=", now).executeTakeFirst(),
  ]);
  return Number(twoFactor.numDeletedRows) + Number(webauthn.numDeletedRows);
}
