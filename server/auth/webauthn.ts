// WebAuthn ceremonies' challenges (passkeys, docs/security.md): made with the options, stored as
// their SHA-256 for 5 minutes, and taken (deleted) by the one answer that names them, whatever
// the outcome. The answer's clientDataJSON carries the challenge, so no cookie has to.
import type { Db } from "../db/types.ts";
import { hashToken, type SessionKind } from "./session.ts";

export const WEBAUTHN_TIMEOUT_MS = 5 * 60 * 1000;

type WebauthnPurpose = "register" | "login";

export async function storeWebauthnChallenge(
  db: Db,
  challenge: { value: string; purpose: WebauthnPurpose; userId?: string; kind?: SessionKind },
  now: Date,
): Promise<void> {
  await db
    .insertInto("webauthn_challenges")
    .values({
      challenge_hash: hashToken(challenge.value),
      purpose: challenge.purpose,
      user_id: challenge.userId ?? null,
      kind: challenge.kind ?? null,
      expires_at: new Date(now.getTime() + WEBAUTHN_TIMEOUT_MS),
      created_at: now,
    })
    .execute();
}

/** A user's registration ceremonies under way at once: a browser or two, not a table to fill (issue 28). */
export const MAX_REGISTRATION_CHALLENGES_PER_USER = 3;

/**
 * Keeps the user's newest few registration challenges that have not expired, and removes the rest:
 * each new options request replaces the oldest past the limit, so asking in a loop stores no more.
 */
export async function pruneRegistrationChallenges(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .deleteFrom("webauthn_challenges")
    .where("purpose", "=", "register")
    .where("user_id", "=", userId)
    .where((eb) =>
      eb.or([
        eb("expires_at", "<=", now),
        eb(
          "challenge_hash",
          "not in",
          eb
            .selectFrom("webauthn_challenges")
            .select("challenge_hash")
            .where("purpose", "=", "register")
            .where("user_id", "=", userId)
            .orderBy("created_at", "desc")
            .orderBy("expires_at", "desc")
            .limit(MAX_REGISTRATION_CHALLENGES_PER_USER),
        ),
      ]),
    )
    .execute();
}

/** The challenge an answer's clientDataJSON names, or null when it names none (or is not JSON). */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    // Base64url JSON, decoded here as the WebAuthn library's helper does: importing that helper loaded
    // the whole library with the app (docs/performance.md, "The test suite's time").
    const { challenge } = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown };
    return typeof challenge === "string" && challenge.length > 0 ? challenge : null;
  } catch {
    return null;
  }
}

/** Takes the stored challenge of `purpose` (single use); null when unknown, spent or expired. */
export async function takeWebauthnChallenge(db: Db, value: string, purpose: WebauthnPurpose, now: Date) {
  const row = await db
    .deleteFrom("webauthn_challenges")
    .where("challenge_hash", "=", hashToken(value))
    .where("purpose", "=", purpose)
    .returning(["user_id", "kind", "expires_at"])
    .executeTakeFirst();
  if (!row || row.expires_at.getTime() <= now.getTime()) return null;
  return row;
}
