import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { RateLimits } from "../auth/rate-limit.ts";
import { type Session, type SessionValidation, validateSessionToken } from "../auth/session.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/types.ts";
import type { CurrentAccount } from "../domains/accounts/schemas.ts";
import type { PublicUser } from "../domains/auth/schemas.ts";
import type { Jobs } from "../jobs/queue.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { FirmScope } from "./firm-scope.ts";
import type { StaffAccess } from "./staff-rights.ts";
import type { ObjectStorage } from "../storage/storage.ts";

// The live message streams' service (created in domains/messages/events.ts), as the context carries it.
/** What a stream hears: a conversation that changed (the client's id), or null for "anything may have changed". */
export type MessageEventListener = {
  /** The session the stream was opened with, and its user: what the caps count and what ends the stream. */
  sessionId: string;
  userId: string;
  /** The client account whose conversation a client's stream shows (null for the firm's): it ends when the person loses that account. */
  accountId: string | null;
  onChange: (clientId: string | null) => void;
  /** The session ended (signed out, revoked, its password changed, its user removed), on any instance. */
  onSessionEnded: () => void;
  /**
   * What the person reaches changed (their role, rights or assigned accounts: migration
   * 2026-11-26T0570_staff_scope_notices), on any instance: a firm stream reads it again at once.
   */
  onScopeChanged?: () => void;
  onShutdown: () => void;
};

type Subscription = { ok: true; stop: () => void } | { ok: false; reason: "unavailable" | "too-many" };

export type MessageEvents = {
  /**
   * Calls `onChange` with the client's id of each conversation that changes, and with null after the
   * instance missed notices (its connection to the database was lost); answers the way to stop, or
   * a refusal: "unavailable" when this instance cannot listen (the page then polls), "too-many"
   * when the session or the user already holds as many streams as they may.
   */
  subscribe(listener: MessageEventListener): Promise<Subscription>;
  /** Ends every stream (their browsers reconnect, to another instance) and stops listening. */
  close(): Promise<void>;
};

/** Long-lived services, built once in server/index.ts (or by a test) and shared by every request. */
export type AppDeps = {
  config: Config;
  db: Kysely<Database>;
  logger: Logger;
  mailer: Mailer;
  storage: ObjectStorage;
  rateLimits: RateLimits;
  /** Work done after the answer (mail, sweeps), durable in the database. */
  jobs: Jobs;
  /** Changes to conversations, heard from every instance (the live message streams). */
  messageEvents: MessageEvents;
  /** The clock; tests pass a controllable one. */
  now: () => Date;
};

// A job runs with the app's services (jobs/queue.ts, JobDeps).
declare module "../jobs/queue.ts" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the merge adds AppDeps' members to JobDeps
  interface JobDeps extends AppDeps {}
}

/** How a procedure sets or clears the session cookie without knowing the transport. */
export type SessionCookies = {
  set(token: string, expiresAt: Date): void;
  clear(): void;
};

export type ContextOptions = {
  deps: AppDeps;
  sessionToken?: string | null;
  ip?: string;
  /** The User-Agent header, kept with a session opened by this request. */
  userAgent?: string | null;
  cookies?: SessionCookies;
  /** The cookie the Google callback set in this browser, which its one-time login code is bound to. */
  signInBrowserSecret?: string | null;
  deviceCookie?: DeviceCookie;
  /**
   * A signal that aborts when the client goes away before its answer, so work queued for it can
   * be dropped. Called only by what needs it (login): the watch costs listeners on the socket.
   */
  clientGone?: () => AbortSignal;
  /**
   * Whether a call that opens a session answers its token (`session_token`). The REST paths do, as
   * the specification's login answer says; /trpc, the React app's own transport, never does, so the
   * page's scripts never see the token its HttpOnly cookie holds (decisions.md, "The specification's contract again (issue 29)").
   */
  answersSessionToken?: boolean;
};

const noCookies: SessionCookies = { set() {}, clear() {} };

/** The browser's device cookie (trusted-devices.ts): its value as sent, and how to replace it. */
export type DeviceCookie = { value: string | undefined; set(value: string): void };

const noDeviceCookie: DeviceCookie = { value: undefined, set() {} };

/**
 * The request-independent part of the context: tests and the REST layer build it directly. One
 * context serves one request: its session is looked up once and kept, so a caller reused after a
 * logout would still see the session it started with.
 */
export function createContextInner(opts: ContextOptions) {
  const { deps } = opts;
  const sessionToken = opts.sessionToken ?? null;
  const cookies = opts.cookies ?? noCookies;
  let session: Promise<SessionValidation> | undefined;
  let account: Promise<unknown> | undefined;
  return {
    ...deps,
    sessionToken,
    ip: opts.ip ?? "unknown",
    userAgent: opts.userAgent ?? null,
    cookies,
    signInBrowserSecret: opts.signInBrowserSecret ?? null,
    deviceCookie: opts.deviceCookie ?? noDeviceCookie,
    clientGone: opts.clientGone ?? ((): AbortSignal | undefined => undefined),
    answersSessionToken: opts.answersSessionToken ?? false,
    /** The request's session, looked up once however many procedures a tRPC batch calls. */
    resolveSession(): Promise<SessionValidation> {
      session ??= (async () => {
        if (!sessionToken) return null;
        const auth = await validateSessionToken(deps.db, sessionToken, deps.now());
        if (auth?.renewed) cookies.set(sessionToken, auth.session.expiresAt);
        return auth;
      })();
      return session;
    },
    /**
     * The request's current client account, resolved once (trpc/procedures.ts, clientProcedure):
     * one request, one access decision. An upload checks the account before it stores the file and
     * records the row after; asking the database again in between could fail (an outage) after the
     * file was stored and before anything could remove it.
     */
    onceForAccount<T>(resolve: () => Promise<T>): Promise<T> {
      account ??= resolve();
      return account as Promise<T>;
    },
  };
}

export type Context = ReturnType<typeof createContextInner>;

/**
 * The context of a signed-in caller (after authedProcedure). Services take `(ctx, input)`: who asks
 * is always `ctx.user`, never an argument a caller could mix up.
 */
export type AuthedContext = Context & { user: PublicUser; session: Session };

/** The firm's context (after adminProcedure): the person's role and rights, and the accounts they reach. */
export type FirmContext = AuthedContext & { staff: StaffAccess; firmScope: FirmScope };

/** A client's context (after clientProcedure): the person, and the account whose data they act on. */
export type ClientContext = AuthedContext & { account: CurrentAccount };
