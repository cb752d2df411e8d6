// Brute-force protection (docs/decisions.md, Limits): rate-limiter-flexible does the counting, in Postgres, so
// limits hold across restarts and across app servers sharing the database. Its RateLimiterPostgres
// talks to a pg-style client (`query({ text, values })`); we hand it a small adapter over our
// Kysely instance instead of a pg.Pool, so the same store works on the embedded PGlite database
// and shares the pool's connection handling (a lost connection is a 503 like any other query).
import { createHash } from "node:crypto";
import net from "node:net";
import { TRPCError } from "@trpc/server";
import { CompiledQuery, type Kysely, sql } from "kysely";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import type { Database } from "../db/types.ts";

const MINUTE = 60;
const HOUR = 60 * MINUTE;

export const MAX_CONSECUTIVE_LOGIN_FAILURES = 10;
export const LOGIN_LOCKOUT_SECONDS = 15 * MINUTE;
export const MAX_ACCOUNT_LOGIN_FAILURES_PER_HOUR = 100;
/** Logins from one address (an IPv6 /64), across usernames: password spraying, and hashing load. */
export const MAX_LOGIN_ATTEMPTS_PER_IP_PER_MINUTE = 30;
export const MAX_LOGIN_ATTEMPTS_PER_IP_PER_HOUR = 300;
/**
 * How long a run of failures without a success stays "consecutive". Without an end, every name
 * ever tried kept a row forever; a day is far longer than any guessing run the lockout answers.
 */
export const CONSECUTIVE_FAILURES_WINDOW_SECONDS = 24 * HOUR;
export const MAX_RESET_REQUESTS_PER_EMAIL_PER_HOUR = 5;
export const MAX_RESET_REQUESTS_PER_IP_PER_HOUR = 20;
export const MAX_REGISTRATIONS_PER_IP_PER_HOUR = 20;
export const MAX_CONSULTATION_REQUESTS_PER_IP_PER_HOUR = 10;
export const MAX_UPLOADS_PER_USER_PER_HOUR = 200;
/** Each verification email goes to an address nobody has confirmed yet: a few an hour are plenty. */
export const MAX_VERIFICATION_RESENDS_PER_USER_PER_HOUR = 5;
/** Each email change mails a link to an address nobody has confirmed yet, as a verification does. */
export const MAX_EMAIL_CHANGES_PER_USER_PER_HOUR = 5;
/** Each passkey sign-in begins with a stored challenge; nobody starts 30 in a minute. */
export const MAX_PASSKEY_CHALLENGES_PER_IP_PER_MINUTE = 30;
/**
 * A client's self-booking changes (book, move, cancel): each queues an email to the client and one
 * to the firm, and 40 moves in 2.3 s held up a password reset's mail for minutes (issue 28).
 */
export const MAX_BOOKING_CHANGES_PER_CLIENT_PER_HOUR = 10;

/** Created by migrations/2026-11-22T2200_rate_limits.ts; every limiter's keys carry its prefix. */
const TABLE = "rate_limits";

/**
 * Login limits count per account, not per typed name: `account` is the user's id once looked up
 * (so a username and an email share one counter) or `unknown:<lowercased login>` for no account.
 */
export type RateLimits = {
  /**
   * Counts a login attempt before the password is checked, so parallel guesses cannot slip past
   * a limit: every attempt counts as a failure until `succeeded()` gives it back. Refuses (429)
   * over a limit: of the address, of this account+address, of this account (AccountLocked). From
   * a trusted device the attempt counts against that device alone.
   */
  beginLoginAttempt(attempt: { account: string; ip: string; trustedDevice: string | null }): Promise<LoginAttempt>;
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
  /** Counts a request to change the account's email address; refuses (429) over the per-user limit. */
  consumeEmailChange(userId: string): Promise<void>;
  /** Counts a passkey sign-in's challenge (a row); refuses (429) over the per-address limit. */
  consumePasskeyChallenge(ip: string): Promise<void>;
  /** Counts a client's booking, move or cancellation of an appointment; refuses (429) over the per-client limit. */
  consumeBookingChange(userId: string): Promise<void>;
};

export type LoginAttempt = {
  /** The password was right: the attempt no longer counts, and the consecutive failures end. */
  succeeded(): Promise<void>;
  /**
   * The password was never checked (the hashing queue filled up after the attempt was counted):
   * nothing was guessed, so nothing counts, and someone retrying through a busy moment is not
   * locked out for it. A client that left while its check waited keeps its count.
   */
  notChecked(): Promise<void>;
  /**
   * The password was right but the account has a second factor still to give: this attempt no
   * longer counts, but the failures before it stay, so that wrong codes after a right password
   * add up to the same lockout (a right password alone never clears it).
   */
  firstFactorPassed(): Promise<void>;
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

/**
 * What the per-address limits count an address by. A single IPv6 host is usually given a whole /64, so
 * counting each of its addresses apart would give it 2^64 fresh counters.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const address = ip.split("%")[0]!;
  if (!net.isIPv6(address)) return ip;
  // An embedded IPv4 tail is the last 32 bits: outside the /64, it only has to count as two groups.
  const [head = "", tail] = address
    .toLowerCase()
    .replace(/\d+\.\d+\.\d+\.\d+$/, "0:0")
    .split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
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
const RESENDS_LIMITED = "Too many verification emails.";
const EMAIL_CHANGES_LIMITED = "Too many email change requests.";
const PASSKEY_CHALLENGES_LIMITED = "Too many passkey sign-ins.";
const BOOKING_CHANGES_LIMITED = "You have booked, moved or cancelled appointments many times in the last hour.";

function tooManyRequests(what: string, msBeforeNext: number): TRPCError {
  return new TRPCError({ code: "TOO_MANY_REQUESTS", message: retryDetail(what, msBeforeNext) });
}

/**
 * A login refused because the account reached its hourly failures: untrusted browsers are locked
 * out of it. `notifyOwner` is true for one refusal per lock, so the owner is told once.
 */
export class AccountLocked extends TRPCError {
  constructor(
    msBeforeNext: number,
    readonly notifyOwner: boolean,
  ) {
    super({ code: "TOO_MANY_REQUESTS", message: retryDetail(LOGIN_LOCKED, msBeforeNext) });
  }
}

/**
 * Rows of limits that have run out. The limiter already treats them as absent; this removes them.
 * The limiter stamps rows with Date.now(), so they are compared with that clock.
 */
export async function deleteExpiredRateLimits(db: Kysely<Database>): Promise<number> {
  const result = await sql`delete from rate_limits where expire < ${Date.now()}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
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
  const storeClient = kyselyStoreClient(db);
  // The library's own clean-up (on by default) is a timer per limiter that outlives the server
  // and spares rows for an hour past their end; deleteExpiredRateLimits runs from server.ts instead.
  const common = { storeClient, storeType: "client", tableName: TABLE, tableCreated: true, clearExpiredByTimeout: false };
  // "Consecutive": a success or the end of a lockout clears the count, and a day without either.
  const consecutiveByAccountAndIp = new RateLimiterPostgres({
    ...common,
    keyPrefix: "login_consecutive",
    points: MAX_CONSECUTIVE_LOGIN_FAILURES,
    duration: CONSECUTIVE_FAILURES_WINDOW_SECONDS,
    blockDuration: LOGIN_LOCKOUT_SECONDS,
  });
  const consecutiveByDevice = new RateLimiterPostgres({
    ...common,
    keyPrefix: "login_device",
    points: MAX_CONSECUTIVE_LOGIN_FAILURES,
    duration: CONSECUTIVE_FAILURES_WINDOW_SECONDS,
    blockDuration: LOGIN_LOCKOUT_SECONDS,
  });
  const failuresByAccount = new RateLimiterPostgres({
    ...common,
    keyPrefix: "login_account",
    points: MAX_ACCOUNT_LOGIN_FAILURES_PER_HOUR,
    duration: HOUR,
  });
  // One row per lock: whoever creates it tells the owner. It lasts as long as the lock.
  const lockNotices = new RateLimiterPostgres({ ...common, keyPrefix: "login_lock_notice", points: 1, duration: HOUR });
  const attemptsByIpPerMinute = new RateLimiterPostgres({
    ...common,
    keyPrefix: "login_ip_minute",
    points: MAX_LOGIN_ATTEMPTS_PER_IP_PER_MINUTE,
    duration: MINUTE,
  });
  const attemptsByIpPerHour = new RateLimiterPostgres({
    ...common,
    keyPrefix: "login_ip_hour",
    points: MAX_LOGIN_ATTEMPTS_PER_IP_PER_HOUR,
    duration: HOUR,
  });

  /**
   * Takes back the point an attempt consumed, in the window it was consumed in: the library's
   * reward would start a new window below zero if the old one ended while the password was checked.
   */
  async function giveBack(limiter: RateLimiterPostgres, key: string): Promise<void> {
    await storeClient.query({
      text: `update ${TABLE} set points = points - 1 where key = $1 and points > 0 and expire > $2`,
      values: [limiter.getKey(key), Date.now()],
    });
  }

  async function lockAccount(account: string, msBeforeNext: number): Promise<never> {
    const first = await lockNotices.consume(keyOf(account), 1, { customDuration: Math.ceil(msBeforeNext / 1000) }).then(
      () => true,
      (rejection: unknown) => {
        if (rejection instanceof RateLimiterRes) return false;
        throw rejection;
      },
    );
    throw new AccountLocked(msBeforeNext, first);
  }
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
  const resendsByUser = new RateLimiterPostgres({
    ...common,
    keyPrefix: "verification_resend_user",
    points: MAX_VERIFICATION_RESENDS_PER_USER_PER_HOUR,
    duration: HOUR,
  });

  const emailChangesByUser = new RateLimiterPostgres({
    ...common,
    keyPrefix: "email_change_user",
    points: MAX_EMAIL_CHANGES_PER_USER_PER_HOUR,
    duration: HOUR,
  });
  const passkeyChallengesByIp = new RateLimiterPostgres({
    ...common,
    keyPrefix: "passkey_challenge_ip",
    points: MAX_PASSKEY_CHALLENGES_PER_IP_PER_MINUTE,
    duration: MINUTE,
  });
  const bookingChangesByClient = new RateLimiterPostgres({
    ...common,
    keyPrefix: "booking_change_user",
    points: MAX_BOOKING_CHANGES_PER_CLIENT_PER_HOUR,
    duration: HOUR,
  });

  return {
    async beginLoginAttempt({ account, ip, trustedDevice }) {
      // A browser that signed in to this account before: only its own failures can lock it out.
      // It guesses at one account only, so the address limits (against spraying) do not apply.
      if (trustedDevice) {
        const device = keyOf(trustedDevice);
        await consumeOrRefuse(consecutiveByDevice, device, LOGIN_LOCKED);
        return {
          async succeeded() {
            await consecutiveByDevice.delete(device);
          },
          async notChecked() {
            await giveBack(consecutiveByDevice, device);
          },
          async firstFactorPassed() {
            await giveBack(consecutiveByDevice, device);
          },
        };
      }
      const address = keyOf(addressKey(ip));
      const accountAndAddress = keyOf(account, addressKey(ip));
      const accountOnly = keyOf(account);
      await consumeOrRefuse(attemptsByIpPerMinute, address, LOGIN_LOCKED);
      await consumeOrRefuse(attemptsByIpPerHour, address, LOGIN_LOCKED);
      // The 11th attempt without a success in between is refused and starts the 15-minute block.
      await consumeOrRefuse(consecutiveByAccountAndIp, accountAndAddress, LOGIN_LOCKED);
      try {
        await failuresByAccount.consume(accountOnly);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) await lockAccount(account, rejection.msBeforeNext);
        throw rejection;
      }
      const giveBackAll = async () => {
        await Promise.all([
          giveBack(attemptsByIpPerMinute, address),
          giveBack(attemptsByIpPerHour, address),
          giveBack(failuresByAccount, accountOnly),
          giveBack(consecutiveByAccountAndIp, accountAndAddress),
        ]);
      };
      return {
        async succeeded() {
          await Promise.all([
            giveBack(attemptsByIpPerMinute, address),
            giveBack(attemptsByIpPerHour, address),
            giveBack(failuresByAccount, accountOnly),
            consecutiveByAccountAndIp.delete(accountAndAddress),
          ]);
        },
        notChecked: giveBackAll,
        firstFactorPassed: giveBackAll,
      };
    },

    async consumePasswordResetRequest(email, ip) {
      await consumeOrRefuse(resetsByIp, keyOf(addressKey(ip)), RESET_LIMITED);
      await consumeOrRefuse(resetsByEmail, keyOf(email.trim().toLowerCase()), RESET_LIMITED);
    },

    async consumeRegistration(ip) {
      await consumeOrRefuse(registrationsByIp, keyOf(addressKey(ip)), REGISTRATIONS_LIMITED);
    },

    async consumeConsultationRequest(ip) {
      await consumeOrRefuse(consultationsByIp, keyOf(addressKey(ip)), CONSULTATIONS_LIMITED);
    },

    async consumeUpload(userId) {
      await consumeOrRefuse(uploadsByUser, keyOf(userId), UPLOADS_LIMITED);
    },

    async consumeVerificationResend(userId) {
      await consumeOrRefuse(resendsByUser, keyOf(userId), RESENDS_LIMITED);
    },

    async consumeEmailChange(userId) {
      await consumeOrRefuse(emailChangesByUser, keyOf(userId), EMAIL_CHANGES_LIMITED);
    },

    async consumePasskeyChallenge(ip) {
      await consumeOrRefuse(passkeyChallengesByIp, keyOf(addressKey(ip)), PASSKEY_CHALLENGES_LIMITED);
    },

    async consumeBookingChange(userId) {
      await consumeOrRefuse(bookingChangesByClient, keyOf(userId), BOOKING_CHANGES_LIMITED);
    },
  };
}
