// Brute-force protection (decisions.md): rate-limiter-flexible does the counting, in Postgres, so
// limits hold across restarts and across app servers sharing the database. Its RateLimiterPostgres
// talks to a pg-style client (`query({ text, values })`); we hand it a small adapter over our
// Kysely instance instead of a pg.Pool, so the same store works on the embedded PGlite database
// and shares the pool's connection handling (a lost connection is a 503 like any other query).
import { createHash } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { CompiledQuery, type Kysely } from "kysely";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import type { Database } from "../db/types.ts";

const MINUTE = 60;
const HOUR = 60 * MINUTE;

export const MAX_CONSECUTIVE_LOGIN_FAILURES = 10;
export const LOGIN_LOCKOUT_SECONDS = 15 * MINUTE;
export const MAX_ACCOUNT_LOGIN_FAILURES_PER_HOUR = 100;
export const MAX_RESET_REQUESTS_PER_EMAIL_PER_HOUR = 5;
export const MAX_RESET_REQUESTS_PER_IP_PER_HOUR = 20;
export const MAX_REGISTRATIONS_PER_IP_PER_HOUR = 20;
export const MAX_CONSULTATION_REQUESTS_PER_IP_PER_HOUR = 10;
export const MAX_UPLOADS_PER_USER_PER_HOUR = 200;

/** Created by migrations/2026-11-23T0900_rate_limits.ts; every limiter's keys carry its prefix. */
const TABLE = "rate_limits";

/**
 * Login limits count per account, not per typed name: `account` is the user's id once looked up
 * (so a username and an email share one counter) or `unknown:<lowercased login>` for no account.
 */
export type RateLimits = {
  /**
   * Counts a login attempt before the password is checked, so parallel guesses cannot slip past
   * the limit; refuses (429) while this account+IP or this account is locked out.
   */
  beginLoginAttempt(account: string, ip: string): Promise<void>;
  /** Counts a failed login against the account's hourly limit. */
  recordLoginFailure(account: string): Promise<void>;
  /** A successful login clears the consecutive attempts of this account+IP. */
  recordLoginSuccess(account: string, ip: string): Promise<void>;
  /** Counts a password-reset request; refuses (429) over the per-email or per-IP limit. */
  consumePasswordResetRequest(email: string, ip: string): Promise<void>;
  /** Counts a registration (an argon2 hash and a row); refuses (429) over the per-IP limit. */
  consumeRegistration(ip: string): Promise<void>;
  /** Counts a consultation request (a row and an email to the firm); refuses (429) over the per-IP limit. */
  consumeConsultationRequest(ip: string): Promise<void>;
  /** Counts an upload attempt, before its body is read; refuses (429) over the per-client limit. */
  consumeUpload(userId: string): Promise<void>;
  /** Counts a request for a new verification email; refuses (429) over the per-user limit. */
  consumeVerificationResend(userId: string): Promise<void>;
};

function kyselyStoreClient(db: Kysely<Database>) {
  return {
    async query(q: { text: string; values?: unknown[] }) {
      const result = await db.executeQuery(CompiledQuery.raw(q.text, q.values ?? []));
      const rowCount = result.numAffectedRows !== undefined ? Number(result.numAffectedRows) : result.rows.length;
      return { rows: result.rows, rowCount };
    },
  };
}

/**
 * Keys are hashed: the table then holds no usernames, email addresses or IPs, and a 254-character
 * email plus an IPv6 address still makes a short key.
 */
function keyOf(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\u0000")).digest("base64url");
}

export function retryDetail(what: string, msBeforeNext: number): string {
  const minutes = Math.max(1, Math.ceil(msBeforeNext / 60_000));
  return `${what} Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

const LOGIN_LOCKED = "Too many failed login attempts.";
const RESET_LIMITED = "Too many password reset requests.";
const REGISTRATIONS_LIMITED = "Too many registrations.";
const CONSULTATIONS_LIMITED = "Too many consultation requests.";
const UPLOADS_LIMITED = "Too many uploads.";

function tooManyRequests(what: string, msBeforeNext: number): TRPCError {
  return new TRPCError({ code: "TOO_MANY_REQUESTS", message: retryDetail(what, msBeforeNext) });
}

/** A limiter rejects with a RateLimiterRes when over its limit and with an Error when the store fails. */
async function consumeOrRefuse(limiter: RateLimiterPostgres, key: string, what: string): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw tooManyRequests(what, rejection.msBeforeNext);
    throw rejection;
  }
}

export function createRateLimits(db: Kysely<Database>): RateLimits {
  const common = { storeClient: kyselyStoreClient(db), storeType: "client", tableName: TABLE, tableCreated: true };
  // "Consecutive": the count never expires by itself; a success or the end of a lockout clears it.
  const consecutiveByAccountAndIp = new RateLimiterPostgres({
    ...common,
    keyPrefix: "login_consecutive",
    points: MAX_CONSECUTIVE_LOGIN_FAILURES,
    duration: 0,
    blockDuration: LOGIN_LOCKOUT_SECONDS,
  });
  const failuresByAccount = new RateLimiterPostgres({
    ...common,
    keyPrefix: "login_account",
    points: MAX_ACCOUNT_LOGIN_FAILURES_PER_HOUR,
    duration: HOUR,
  });
  const resetsByEmail = new RateLimiterPostgres({
    ...common,
    keyPrefix: "reset_email",
    points: MAX_RESET_REQUESTS_PER_EMAIL_PER_HOUR,
    duration: HOUR,
  });
  const resetsByIp = new RateLimiterPostgres({
    ...common,
    keyPrefix: "reset_ip",
    points: MAX_RESET_REQUESTS_PER_IP_PER_HOUR,
    duration: HOUR,
  });
  const registrationsByIp = new RateLimiterPostgres({
    ...common,
    keyPrefix: "register_ip",
    points: MAX_REGISTRATIONS_PER_IP_PER_HOUR,
    duration: HOUR,
  });
  const consultationsByIp = new RateLimiterPostgres({
    ...common,
    keyPrefix: "consultation_ip",
    points: MAX_CONSULTATION_REQUESTS_PER_IP_PER_HOUR,
    duration: HOUR,
  });
  const uploadsByUser = new RateLimiterPostgres({
    ...common,
    keyPrefix: "upload_user",
    points: MAX_UPLOADS_PER_USER_PER_HOUR,
    duration: HOUR,
  });

  return {
    async beginLoginAttempt(account, ip) {
      const byAccount = await failuresByAccount.get(keyOf(account));
      if (byAccount && byAccount.consumedPoints >= MAX_ACCOUNT_LOGIN_FAILURES_PER_HOUR) {
        throw tooManyRequests(LOGIN_LOCKED, byAccount.msBeforeNext);
      }
      // The 11th attempt without a success in between is refused and starts the 15-minute block.
      await consumeOrRefuse(consecutiveByAccountAndIp, keyOf(account, ip), LOGIN_LOCKED);
    },

    async recordLoginFailure(account) {
      await consumeOrRefuse(failuresByAccount, keyOf(account), LOGIN_LOCKED);
    },

    async recordLoginSuccess(account, ip) {
      await consecutiveByAccountAndIp.delete(keyOf(account, ip));
    },

    async consumePasswordResetRequest(email, ip) {
      await consumeOrRefuse(resetsByIp, keyOf(ip), RESET_LIMITED);
      await consumeOrRefuse(resetsByEmail, keyOf(email.trim().toLowerCase()), RESET_LIMITED);
    },

    async consumeRegistration(ip) {
      await consumeOrRefuse(registrationsByIp, keyOf(ip), REGISTRATIONS_LIMITED);
    },

    async consumeConsultationRequest(ip) {
      await consumeOrRefuse(consultationsByIp, keyOf(ip), CONSULTATIONS_LIMITED);
    },

    async consumeUpload(userId) {
      await consumeOrRefuse(uploadsByUser, keyOf(userId), UPLOADS_LIMITED);
    },

    consumeVerificationResend: verificationResendLimit(common),
  };
}

export const MAX_VERIFICATION_RESENDS_PER_USER_PER_HOUR = 5;

/** Each verification email goes to an address nobody has confirmed yet: a few an hour are plenty. */
function verificationResendLimit(common: Pick<ConstructorParameters<typeof RateLimiterPostgres>[0], "storeClient" | "storeType" | "tableName" | "tableCreated">) {
  const resendsByUser = new RateLimiterPostgres({
    ...common,
    keyPrefix: "verification_resend_user",
    points: MAX_VERIFICATION_RESENDS_PER_USER_PER_HOUR,
    duration: HOUR,
  });
  return async (userId: string) => {
    await consumeOrRefuse(resendsByUser, keyOf(userId), "Too many verification emails.");
  };
}
