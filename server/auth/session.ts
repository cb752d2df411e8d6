// Sessions after the lucia-auth.com session guide: the client holds a random token, the database
// holds only its SHA-256, so a leaked sessions table cannot be replayed.
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { type InferResult, type Kysely, sql } from "kysely";
import type { Database, Db } from "../db/types.ts";
import type { PublicUser } from "../domains/auth/schemas.ts";
import type { StaffAccess } from "../trpc/staff-rights.ts";
import { staffAccessOf } from "./staff-access.ts";

export type SessionKind = "client" | "admin";

const DAY_MS = 24 * 60 * 60 * 1000;
export const CLIENT_SESSION_MS = 7 * DAY_MS;
export const ADMIN_SESSION_MS = 12 * 60 * 60 * 1000;
export const ADMIN_IDLE_MS = 30 * 60 * 1000;
/** A client session is renewed while in use, but never beyond this long after sign-in. */
export const CLIENT_SESSION_MAX_MS = 90 * DAY_MS;
/** Admin activity is written at most this often, so reads are not all writes. */
const ADMIN_TOUCH_MS = 60 * 1000;
/** A client session's "last used" (shown in its owner's sessions list) is written at most this often. */
export const CLIENT_TOUCH_MS = 5 * 60 * 1000;
/** What is kept of a user agent: enough to name the browser, not a place to store a novel. */
const MAX_USER_AGENT_LENGTH = 512;

export type Session = {
  id: string;
  userId: string;
  kind: SessionKind;
  expiresAt: Date;
  lastUsedAt: Date;
};

/** Where a sign-in came from, kept with its session for the owner's sessions list. */
export type SignInOrigin = { ip: string | null; userAgent: string | null };

/** `staff`: the firm's role and rights of an admin user, read with the session (staff-access.ts). */
export type SessionValidation = { session: Session; user: PublicUser; staff: StaffAccess | null; renewed: boolean } | null;

/** 20 random bytes (160 bits), base32. */
export function generateToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

export function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

/**
 * Opens a session for the user only while their session epoch is still `sessionEpoch`, the one
 * read when the credential was checked: a password reset (or anything else that ends every session)
 * in between raises it, and then no session is opened. The user row is locked FOR SHARE until the
 * commit, so an epoch change waits for this insert and its session clean-up then sees the new row.
 * A user deleted (or deactivated) in the meantime also gets none. Null when no session was opened.
 */
export async function createSession(
  db: Db,
  user: { id: string; sessionEpoch: number },
  kind: SessionKind,
  now: Date,
  origin: SignInOrigin = { ip: null, userAgent: null },
  /** Whether the sign-in that opens it showed a second factor (docs/security.md, Round 3). */
  secondFactor = false,
): Promise<{ token: string; session: Session } | null> {
  const token = generateToken();
  const session: Session = {
    id: hashToken(token),
    userId: user.id,
    kind,
    expiresAt: new Date(now.getTime() + (kind === "admin" ? ADMIN_SESSION_MS : CLIENT_SESSION_MS)),
    lastUsedAt: now,
  };
  const inserted = await db
    .insertInto("sessions")
    .columns(["id", "user_id", "kind", "expires_at", "last_used_at", "created_at", "ip", "user_agent", "proven_at", "second_factor_proven_at"])
    .expression((eb) =>
      eb
        .selectFrom("users")
        .select([
          eb.val(session.id).as("id"),
          "users.id as user_id",
          eb.val(kind).as("kind"),
          eb.cast<Date>(eb.val(session.expiresAt), "timestamptz").as("expires_at"),
          eb.cast<Date>(eb.val(now), "timestamptz").as("last_used_at"),
          eb.cast<Date>(eb.val(now), "timestamptz").as("created_at"),
          eb.cast<string | null>(eb.val(origin.ip), "text").as("ip"),
          eb.cast<string | null>(eb.val(origin.userAgent?.slice(0, MAX_USER_AGENT_LENGTH) ?? null), "text").as("user_agent"),
          // Every session is opened by a proof (a password, a passkey, Google, a code): fresh now.
          eb.cast<Date>(eb.val(now), "timestamptz").as("proven_at"),
          eb.cast<Date | null>(eb.val(secondFactor ? now : null), "timestamptz").as("second_factor_proven_at"),
        ])
        .where("users.id", "=", user.id)
        .where("users.session_epoch", "=", user.sessionEpoch)
        // A deactivated person opens no session, whatever proof they bring (a passkey, Google).
        .where("users.deactivated_at", "is", null)
        .forShare(),
    )
    .returning("id")
    .executeTakeFirst();
  return inserted ? { token, session } : null;
}

function sessionLookupQuery(db: Kysely<Database>) {
  return db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select([
      "sessions.id as session_id",
      "sessions.kind",
      "sessions.expires_at",
      "sessions.last_used_at",
      "sessions.created_at as signed_in_at",
      "users.id",
      "users.name",
      "users.email",
      "users.username",
      "users.auth_provider",
      "users.created_at",
      "users.is_admin",
      sql<boolean>`users.email_verified_at is not null`.as("email_verified"),
      "users.language",
      "users.staff_role",
      "users.staff_rights",
      "users.deactivated_at",
    ])
    .where("sessions.id", "=", "")
    .compile();
}

// Every signed-in request runs this lookup. Building and compiling it with Kysely each time cost
// about as much CPU as the query itself (measured: ~90 us of ~230 us), so it is compiled once per
// database handle and only its parameter changes.
const compiledSessionLookups = new WeakMap<Db, ReturnType<typeof sessionLookupQuery>>();

async function findSessionRow(db: Db, sessionId: string) {
  let compiled = compiledSessionLookups.get(db);
  if (!compiled) {
    compiled = sessionLookupQuery(db);
    compiledSessionLookups.set(db, compiled);
  }
  const { rows } = await db.executeQuery<InferResult<typeof compiled>[number]>({ ...compiled, parameters: [sessionId] });
  return rows[0];
}

export async function validateSessionToken(db: Db, token: string, now: Date): Promise<SessionValidation> {
  const sessionId = hashToken(token);
  const row = await findSessionRow(db, sessionId);
  if (!row) return null;

  const nowMs = now.getTime();
  const expired = nowMs >= row.expires_at.getTime() || (row.kind === "admin" && nowMs - row.last_used_at.getTime() >= ADMIN_IDLE_MS);
  if (expired) {
    await invalidateSession(db, sessionId);
    return null;
  }

  let expiresAt = row.expires_at;
  let lastUsedAt = row.last_used_at;
  let renewed = false;
  const latestExpiry = row.signed_in_at.getTime() + CLIENT_SESSION_MAX_MS;
  if (row.kind === "client" && expiresAt.getTime() - nowMs < CLIENT_SESSION_MS / 2 && expiresAt.getTime() < latestExpiry) {
    expiresAt = new Date(Math.min(nowMs + CLIENT_SESSION_MS, latestExpiry));
    lastUsedAt = now;
    renewed = true;
    await db.updateTable("sessions").set({ expires_at: expiresAt, last_used_at: now }).where("id", "=", sessionId).execute();
  } else if (nowMs - lastUsedAt.getTime() >= (row.kind === "admin" ? ADMIN_TOUCH_MS : CLIENT_TOUCH_MS)) {
    lastUsedAt = now;
    await db.updateTable("sessions").set({ last_used_at: now }).where("id", "=", sessionId).execute();
  }

  const { session_id, kind, expires_at: _e, last_used_at: _l, signed_in_at: _s, staff_role, staff_rights, deactivated_at, ...user } = row;
  return {
    session: { id: session_id, userId: user.id, kind, expiresAt, lastUsedAt },
    user,
    staff: staffAccessOf({ is_admin: user.is_admin, staff_role, staff_rights, deactivated_at }),
    renewed,
  };
}

export async function invalidateSession(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom("sessions").where("id", "=", sessionId).execute();
}

/** Sessions that can no longer be used: past their expiry, or admin sessions idle too long. */
export async function deleteExpiredSessions(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom("sessions")
    .where((eb) =>
      eb.or([eb("expires_at", "<=", now), eb.and([eb("kind", "=", "admin"), eb("last_used_at", "<=", new Date(now.getTime() - ADMIN_IDLE_MS))])]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Ends every session of the user, including any a sign-in checked earlier is about to open: the
 * epoch goes up first (see createSession), then the sessions go. Call it inside the transaction
 * that changes the credential.
 */
export async function invalidateUserSessions(db: Db, userId: string): Promise<void> {
  await db
    .updateTable("users")
    .set((eb) => ({ session_epoch: eb("session_epoch", "+", 1) }))
    .where("id", "=", userId)
    .execute();
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
}

/**
 * Ends every session of the user but `keptSessionId` (the caller's), and any sign-in under way
 * (the epoch goes up, see createSession). The number of sessions ended.
 */
export async function invalidateOtherSessions(db: Db, userId: string, keptSessionId: string): Promise<number> {
  await db
    .updateTable("users")
    .set((eb) => ({ session_epoch: eb("session_epoch", "+", 1) }))
    .where("id", "=", userId)
    .execute();
  const result = await db.deleteFrom("sessions").where("user_id", "=", userId).where("id", "!=", keptSessionId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
