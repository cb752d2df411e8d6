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

/** Who a limit counts by; every key is hashed (keyOf) before it is stored. */
const KEYS = {
  /** An address; an IPv6 /64 counts as one (addressKey). */
  address: (ip: string) => keyOf(addressKey(ip)),
  /** A signed-in user's id. */
  user: (userId: string) => keyOf(userId),
  /** An email address as typed, trimmed and lowercased. */
  email: (email: string) => keyOf(email.trim().toLowerCase()),
  /** A login's account: the user's id, or `unknown:<lowercased login>` for no account (RateLimits). */
  account: (account: string) => keyOf(account),
  /** A login's account from one address. */
  "account and address": ({ account, ip }: { account: string; ip: string }) => keyOf(account, addressKey(ip)),
  /** A trusted browser's device token. */
  device: (token: string) => keyOf(token),
};
type KeyKind = keyof typeof KEYS;

type Limit = {
  /** Starts every key of the limit's rows in the shared table; renaming one starts its counts afresh. */
  prefix: string;
  points: number;
  /** Seconds from a key's first point until its count starts again. */
  window: number;
  /** Seconds refused once over the limit; without it, until the window ends. */
  block?: number;
  key: KeyKind;
  /** The 429's detail, before "Please try again in N minutes."; null for a row that refuses nobody. */
  message: string | null;
};

const LOGIN_LOCKED = "Too many failed login attempts.";

/**
 * Every limit, in one place (docs/security.md, Sign-in throttling; docs/decisions.md, Limits).
 * Each is a limiter over the `rate_limits` table; refusals are 429 with the message and the
 * minutes to wait.
 */
const LIMITS = {
  // Logins from one address, across usernames: password spraying, and hashing load.
  loginsByAddressPerMinute: { prefix: "login_ip_minute", points: 30, window: MINUTE, key: "address", message: LOGIN_LOCKED },
  loginsByAddressPerHour: { prefix: "login_ip_hour", points: 300, window: HOUR, key: "address", message: LOGIN_LOCKED },
  // "Consecutive": a success or the end of a lockout clears the count. Without an end, every name
  // ever tried kept a row forever; a day is far longer than any guessing run the lockout answers.
  // The 11th attempt without a success in between is refused and starts the 15-minute block.
  consecutiveLoginFailures: {
    prefix: "login_consecutive",
    points: 10,
    window: 24 * HOUR,
    block: 15 * MINUTE,
    key: "account and address",
    message: LOGIN_LOCKED,
  },
  // From a trusted browser an attempt counts against that browser alone.
  consecutiveLoginFailuresOfDevice: {
    prefix: "login_device",
    points: 10,
    window: 24 * HOUR,
    block: 15 * MINUTE,
    key: "device",
    message: LOGIN_LOCKED,
  },
  // Over it, the account is locked for untrusted browsers (AccountLocked) until the hour ends.
  loginFailuresOfAccount: { prefix: "login_account", points: 100, window: HOUR, key: "account", message: LOGIN_LOCKED },
  // One row per lock: whoever creates it tells the owner. It lasts as long as the lock.
  loginLockNotices: { prefix: "login_lock_notice", points: 1, window: HOUR, key: "account", message: null },
  resetRequestsByEmail: { prefix: "reset_email", points: 5, window: HOUR, key: "email", message: "Too many password reset requests." },
  resetRequestsByAddress: { prefix: "reset_ip", points: 20, window: HOUR, key: "address", message: "Too many password reset requests." },
  // Each is an argon2 hash and a row.
  registrations: { prefix: "register_ip", points: 20, window: HOUR, key: "address", message: "Too many registrations." },
  // Each is a row and an email to the firm.
  consultationRequests: { prefix: "consultation_ip", points: 10, window: HOUR, key: "address", message: "Too many consultation requests." },
  // Counted before the body is read.
  uploads: { prefix: "upload_user", points: 200, window: HOUR, key: "user", message: "Too many uploads." },
  // Each verification email goes to an address nobody has confirmed yet: a few an hour are plenty.
  verificationResends: { prefix: "verification_resend_user", points: 5, window: HOUR, key: "user", message: "Too many verification emails." },
  // Each email change mails a link to an address nobody has confirmed yet, as a verification does.
  emailChanges: { prefix: "email_change_user", points: 5, window: HOUR, key: "user", message: "Too many email change requests." },
  // Each passkey sign-in begins with a stored challenge; nobody starts 30 in a minute.
  passkeyChallenges: { prefix: "passkey_challenge_ip", points: 30, window: MINUTE, key: "address", message: "Too many passkey sign-ins." },
  // A client's self-booking changes (book, move, cancel): each queues an email to the client and
  // one to the firm, and 40 moves in 2.3 s held up a password reset's mail for minutes (issue 28).
  bookingChanges: {
    prefix: "booking_change_user",
    points: 10,
    window: HOUR,
    key: "user",
    message: "You have booked, moved or cancelled appointments many times in the last hour.",
  },
  // An account owner's invitations of other people: each is a row and an email to an address
  // nobody here has proven, so a stolen session cannot turn the portal into a mailer.
  contactInvitations: { prefix: "contact_invitation_user", points: 10, window: HOUR, key: "user", message: "Too many invitations." },
  // Mail one of the firm's people has the portal send to clients by their own clicks (invitations,
  // requests, organizers, signature requests, reminders): a busy hour of one person's work is far
  // below it, a stolen staff session cannot make the portal a mailer (docs/security.md, Round 4).
  firmMailToClients: {
    prefix: "firm_mail_user",
    points: 100,
    window: HOUR,
    key: "user",
    message: "You have sent clients many emails in the last hour.",
  },
  // The public check of a sealed PDF (issue 35): anyone may send one, each up to 25 MB read, hashed
  // and parsed; a person checks a few files, not dozens.
  sealVerifications: { prefix: "seal_verify_ip", points: 20, window: 10 * MINUTE, key: "address", message: "Too many PDFs checked." },
} as const satisfies Record<string, Limit>;
type LimitName = keyof typeof LIMITS;
/** The limits that refuse a request over them (all but the lock notices). */
type RefusingLimit = { [N in LimitName]: (typeof LIMITS)[N]["message"] extends string ? N : never }[LimitName];
type SubjectOf<N extends LimitName> = Parameters<(typeof KEYS)[(typeof LIMITS)[N]["key"]]>[0];

function keyFor<N extends LimitName>(name: N, subject: SubjectOf<N>): string {
  return (KEYS[LIMITS[name].key] as (subject: SubjectOf<N>) => string)(subject);
}

// The tests count up to these.
export const MAX_CONSECUTIVE_LOGIN_FAILURES = LIMITS.consecutiveLoginFailures.points;
export const LOGIN_LOCKOUT_SECONDS = LIMITS.consecutiveLoginFailures.block;
export const MAX_ACCOUNT_LOGIN_FAILURES_PER_HOUR = LIMITS.loginFailuresOfAccount.points;
export const MAX_LOGIN_ATTEMPTS_PER_IP_PER_MINUTE = LIMITS.loginsByAddressPerMinute.points;
export const MAX_LOGIN_ATTEMPTS_PER_IP_PER_HOUR = LIMITS.loginsByAddressPerHour.points;
export const MAX_RESET_REQUESTS_PER_EMAIL_PER_HOUR = LIMITS.resetRequestsByEmail.points;
export const MAX_RESET_REQUESTS_PER_IP_PER_HOUR = LIMITS.resetRequestsByAddress.points;
export const MAX_REGISTRATIONS_PER_IP_PER_HOUR = LIMITS.registrations.points;
export const MAX_CONSULTATION_REQUESTS_PER_IP_PER_HOUR = LIMITS.consultationRequests.points;
export const MAX_UPLOADS_PER_USER_PER_HOUR = LIMITS.uploads.points;
export const MAX_VERIFICATION_RESENDS_PER_USER_PER_HOUR = LIMITS.verificationResends.points;
export const MAX_PASSKEY_CHALLENGES_PER_IP_PER_MINUTE = LIMITS.passkeyChallenges.points;
export const MAX_BOOKING_CHANGES_PER_CLIENT_PER_HOUR = LIMITS.bookingChanges.points;
export const MAX_CONTACT_INVITATIONS_PER_USER_PER_HOUR = LIMITS.contactInvitations.points;
export const MAX_FIRM_MAILS_TO_CLIENTS_PER_PERSON_PER_HOUR = LIMITS.firmMailToClients.points;
/**
 * A signer is reminded at most once in this time (signature_signers.last_reminded_at, claimed by one
 * conditional UPDATE, so reminders sent at once cannot both pass); past it, 429 as the limits above.
 */
export const SIGNER_REMINDER_INTERVAL_HOURS = 24;
export const SIGNER_REMINDED_RECENTLY = `Everyone waiting was reminded less than ${SIGNER_REMINDER_INTERVAL_HOURS} hours ago.`;
export const MAX_SEAL_VERIFICATIONS_PER_IP = LIMITS.sealVerifications.points;
export const SEAL_VERIFICATION_WINDOW_SECONDS = LIMITS.sealVerifications.window;

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
  /** Counts an account owner's invitation of another person; refuses (429) over the per-user limit. */
  consumeContactInvitation(userId: string): Promise<void>;
  /** Counts a public check of a sealed PDF, before the file is read; refuses (429) over the per-address limit. */
  consumeSealVerification(ip: string): Promise<void>;
  /** Counts an action of one of the firm's people that mails a client; refuses (429) over the per-person limit. */
  consumeFirmMailToClients(userId: string): Promise<void>;
  /**
   * As consumeFirmMailToClients, for an action that learns only in its transaction whether it mails a
   * client: `giveBack` takes the point back when it mailed nobody or failed (server/trpc/firm-mail-cap.ts).
   */
  chargeFirmMailToClients(userId: string): Promise<{ giveBack(): Promise<void> }>;
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

function retryDetail(what: string, msBeforeNext: number): string {
  const minutes = Math.max(1, Math.ceil(msBeforeNext / 60_000));
  // A wait of hours (a signer's reminder) reads in hours; the hourly limits keep their minutes.
  if (minutes > 120) return `${what} Please try again in ${Math.ceil(minutes / 60)} hours.`;
  return `${what} Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** A 429 refusal as every limit answers it: what was refused, then when to try again. */
export function tooManyRequests(what: string, msBeforeNext: number): TRPCError {
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

export function createRateLimits(db: Kysely<Database>): RateLimits {
  const storeClient = kyselyStoreClient(db);
  // The library's own clean-up (on by default) is a timer per limiter that outlives the server
  // and spares rows for an hour past their end; deleteExpiredRateLimits runs from server.ts instead.
  const common = { storeClient, storeType: "client", tableName: TABLE, tableCreated: true, clearExpiredByTimeout: false };
  const limiters = Object.fromEntries(
    Object.entries(LIMITS).map(([name, limit]: [string, Limit]) => [
      name,
      new RateLimiterPostgres({ ...common, keyPrefix: limit.prefix, points: limit.points, duration: limit.window, blockDuration: limit.block }),
    ]),
  ) as Record<LimitName, RateLimiterPostgres>;

  /**
   * Counts a point against the limit and returns the key it counted; over the limit, refuses with
   * its message. A limiter rejects with a RateLimiterRes when over its limit and with an Error when
   * the store fails.
   */
  async function consume<N extends RefusingLimit>(name: N, subject: SubjectOf<N>): Promise<string> {
    const key = keyFor(name, subject);
    try {
      await limiters[name].consume(key);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw tooManyRequests(LIMITS[name].message, rejection.msBeforeNext);
      throw rejection;
    }
    return key;
  }

  /**
   * Takes back the point an attempt consumed, in the window it was consumed in: the library's
   * reward would start a new window below zero if the old one ended while the password was checked.
   */
  async function giveBack(name: LimitName, key: string): Promise<void> {
    await storeClient.query({
      text: `update ${TABLE} set points = points - 1 where key = $1 and points > 0 and expire > $2`,
      values: [limiters[name].getKey(key), Date.now()],
    });
  }

  async function lockAccount(account: string, msBeforeNext: number): Promise<never> {
    const notice = keyFor("loginLockNotices", account);
    const first = await limiters.loginLockNotices.consume(notice, 1, { customDuration: Math.ceil(msBeforeNext / 1000) }).then(
      () => true,
      (rejection: unknown) => {
        if (rejection instanceof RateLimiterRes) return false;
        throw rejection;
      },
    );
    throw new AccountLocked(msBeforeNext, first);
  }

  return {
    async beginLoginAttempt({ account, ip, trustedDevice }) {
      // A browser that signed in to this account before: only its own failures can lock it out.
      // It guesses at one account only, so the address limits (against spraying) do not apply.
      if (trustedDevice) {
        const device = await consume("consecutiveLoginFailuresOfDevice", trustedDevice);
        return {
          async succeeded() {
            await limiters.consecutiveLoginFailuresOfDevice.delete(device);
          },
          async notChecked() {
            await giveBack("consecutiveLoginFailuresOfDevice", device);
          },
          async firstFactorPassed() {
            await giveBack("consecutiveLoginFailuresOfDevice", device);
          },
        };
      }
      const address = await consume("loginsByAddressPerMinute", ip);
      await consume("loginsByAddressPerHour", ip);
      const accountAndAddress = await consume("consecutiveLoginFailures", { account, ip });
      const accountOnly = keyFor("loginFailuresOfAccount", account);
      try {
        await limiters.loginFailuresOfAccount.consume(accountOnly);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) await lockAccount(account, rejection.msBeforeNext);
        throw rejection;
      }
      const giveBackAll = async () => {
        await Promise.all([
          giveBack("loginsByAddressPerMinute", address),
          giveBack("loginsByAddressPerHour", address),
          giveBack("loginFailuresOfAccount", accountOnly),
          giveBack("consecutiveLoginFailures", accountAndAddress),
        ]);
      };
      return {
        async succeeded() {
          await Promise.all([
            giveBack("loginsByAddressPerMinute", address),
            giveBack("loginsByAddressPerHour", address),
            giveBack("loginFailuresOfAccount", accountOnly),
            limiters.consecutiveLoginFailures.delete(accountAndAddress),
          ]);
        },
        notChecked: giveBackAll,
        firstFactorPassed: giveBackAll,
      };
    },

    async consumePasswordResetRequest(email, ip) {
      await consume("resetRequestsByAddress", ip);
      await consume("resetRequestsByEmail", email);
    },
    async consumeRegistration(ip) {
      await consume("registrations", ip);
    },
    async consumeConsultationRequest(ip) {
      await consume("consultationRequests", ip);
    },
    async consumeUpload(userId) {
      await consume("uploads", userId);
    },
    async consumeVerificationResend(userId) {
      await consume("verificationResends", userId);
    },
    async consumeEmailChange(userId) {
      await consume("emailChanges", userId);
    },
    async consumePasskeyChallenge(ip) {
      await consume("passkeyChallenges", ip);
    },
    async consumeBookingChange(userId) {
      await consume("bookingChanges", userId);
    },
    async consumeContactInvitation(userId) {
      await consume("contactInvitations", userId);
    },
    async consumeSealVerification(ip) {
      await consume("sealVerifications", ip);
    },
    async consumeFirmMailToClients(userId) {
      await consume("firmMailToClients", userId);
    },
    async chargeFirmMailToClients(userId) {
      const key = await consume("firmMailToClients", userId);
      return { giveBack: () => giveBack("firmMailToClients", key) };
    },
  };
}
