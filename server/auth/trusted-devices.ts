// Device cookies (OWASP, "Slow down online guessing attacks with device cookies"). A browser that
// signs in to an account gets a random token for it, kept in an HttpOnly cookie; the table holds
// only its SHA-256. A login attempt that presents a valid token for the account it names counts
// against that browser alone, so other people's wrong guesses, however many, never lock the owner
// out of a browser they have used before. Each successful sign-in replaces the token, so a copied
// cookie stops working at the owner's next sign-in.
import type { Kysely } from "kysely";
import type { Database, Db } from "../db/types.ts";
import { generateToken, hashToken } from "./session.ts";

export const DEVICE_TRUST_SECONDS = 365 * 24 * 60 * 60;
/** One browser, a few accounts (someone who is both a client and the firm's admin, say). */
const MAX_TOKENS_PER_COOKIE = 5;
/** Every sign-in without the cookie (a script with a Bearer token) adds a row: keep the newest. */
const MAX_DEVICES_PER_USER = 20;
const TOKEN_SHAPE = /^[a-z2-7]{32}$/;

/** The tokens a device cookie holds, newest first; anything that is not a token is ignored. */
export function deviceTokens(cookie: string | undefined): string[] {
  if (!cookie) return [];
  return cookie
    .split(".")
    .filter((token) => TOKEN_SHAPE.test(token))
    .slice(0, MAX_TOKENS_PER_COOKIE);
}

/** The id of the presented device that is trusted for this user, or null. */
export async function findTrustedDevice(db: Db, tokens: string[], userId: string, now: Date): Promise<string | null> {
  if (tokens.length === 0) return null;
  const row = await db
    .selectFrom("trusted_devices")
    .select("token_hash")
    .where("token_hash", "in", tokens.map(hashToken))
    .where("user_id", "=", userId)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row?.token_hash ?? null;
}

/**
 * After a successful sign-in: a new token for this user, in place of the one the browser showed
 * (`replaced`), if any. Returns the new cookie value: the new token first, then the browser's
 * tokens for other accounts.
 */
export async function trustDevice(db: Kysely<Database>, userId: string, tokens: string[], replaced: string | null, now: Date): Promise<string> {
  const token = generateToken();
  await db.transaction().execute(async (tx) => {
    if (replaced) await tx.deleteFrom("trusted_devices").where("token_hash", "=", replaced).execute();
    await tx
      .insertInto("trusted_devices")
      .values({ token_hash: hashToken(token), user_id: userId, expires_at: new Date(now.getTime() + DEVICE_TRUST_SECONDS * 1000), created_at: now })
      .execute();
    await tx
      .deleteFrom("trusted_devices")
      .where("user_id", "=", userId)
      .where("token_hash", "not in", (eb) =>
        eb.selectFrom("trusted_devices").select("token_hash").where("user_id", "=", userId).orderBy("created_at", "desc").limit(MAX_DEVICES_PER_USER),
      )
      .execute();
  });
  const others = tokens.filter((t) => hashToken(t) !== replaced);
  return [token, ...others].slice(0, MAX_TOKENS_PER_COOKIE).join(".");
}

export async function deleteExpiredTrustedDevices(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom("trusted_devices").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
