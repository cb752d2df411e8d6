// "Continue with Google": the browser navigates to the start route, which sends it to the provider;
// the provider sends it back to the callback, which signs the identity in and forwards to
// /profile#session_id=<one-time code>, redeemable only by this browser (it also gets a cookie the
// code is bound to). These are browser navigations, not API calls, so every
// failure after the start ends on the landing page with AUTH_ERROR_PARAM, which shows the spec's
// "Authentication failed. Please try again." toast.
import type { Request, RequestHandler } from "express";
import { z } from "zod";
import { type AuthorizationChecks, createOidcClient, GOOGLE_CALLBACK_PATH } from "../auth/oidc.ts";
import { readCookie, setCookie, signInBrowserCookieName } from "../auth/cookies.ts";
import { generateToken } from "../auth/session.ts";
import { isDatabaseUnavailable } from "../db/errors.ts";
import { TWO_FACTOR_CHALLENGE_MS } from "../auth/second-factor.ts";
import { createLoginCode, ExternalSignInRefused, findOrCreateGoogleUser, googleSecondStep, LOGIN_CODE_MS } from "../domains/auth/external-sign-in.ts";
import { AUTH_ERROR_PARAM } from "../domains/auth/messages.ts";
import { checkCarriedInvitation, GoogleSignUpRefused } from "../domains/invitations/accept.ts";
import { GOOGLE_REFUSAL, INVITE_PARAM } from "../domains/invitations/messages.ts";
import type { AppDeps } from "../trpc/context.ts";
import type { RestRoute } from "./route.ts";

export const GOOGLE_NOT_CONFIGURED = "Google sign-in is not configured";
const FAILURE_LOCATION = `/?${AUTH_ERROR_PARAM}=1`;
/** Long enough to sign in at the provider, short enough not to linger. */
const CHECKS_COOKIE_SECONDS = 10 * 60;

/** A refusal of our own (no sign-in in progress, unverified email): an outcome to log, not a fault. */
class CallbackRefused extends Error {}

const redirect = { description: "Redirect (302) of the browser", status: 302 } as const;

export const googleRoutes: RestRoute[] = [
  {
    method: "get",
    path: "/auth/google",
    summary: "Start Google sign-in (browser navigation); `invite` carries an invitation's token, whose address the Google account must have",
    tag: "auth",
    access: "public",
    query: z.object({ [INVITE_PARAM]: z.string().max(200).optional() }),
    response: redirect,
    handler: (deps) => googleSignIn(deps).start,
  },
  {
    method: "get",
    path: "/auth/google/callback",
    summary: "Google sign-in callback (browser navigation)",
    tag: "auth",
    access: "public",
    response: redirect,
    handler: (deps) => googleSignIn(deps).callback,
  },
];

/** Both routes share one client (its discovered issuer metadata) per app. */
const signInsByApp = new WeakMap<AppDeps, { start: RequestHandler; callback: RequestHandler }>();

function googleSignIn(deps: AppDeps) {
  let handlers = signInsByApp.get(deps);
  if (!handlers) {
    handlers = createGoogleSignIn(deps);
    signInsByApp.set(deps, handlers);
  }
  return handlers;
}

function createGoogleSignIn(deps: AppDeps): { start: RequestHandler; callback: RequestHandler } {
  const { config, logger } = deps;
  const client = createOidcClient(config);
  // Over https the cookie name says it was set securely; `__Host-` would need Path=/.
  const checksCookie = config.secureCookies ? "__Secure-google_oidc" : "google_oidc";

  const start: RequestHandler = async (req, res) => {
    if (!client) {
      res.status(404).json({ detail: GOOGLE_NOT_CONFIGURED });
      return;
    }
    try {
      const { url, checks } = await client.startAuthorization();
      setCookie(res, config, checksCookie, encodeChecks({ ...checks, invite: inviteOf(req.query[INVITE_PARAM]) }), {
        maxAgeSeconds: CHECKS_COOKIE_SECONDS,
        path: GOOGLE_CALLBACK_PATH,
        sameSite: "lax",
      });
      res.redirect(302, url.href);
    } catch (err) {
      logger.warn({ err }, "google sign-in: the provider could not be reached");
      res.redirect(302, FAILURE_LOCATION);
    }
  };

  const callback: RequestHandler = async (req, res) => {
    const checks = decodeChecks(readCookie(req, checksCookie));
    // Single use: whatever happens next, this attempt's state is spent.
    setCookie(res, config, checksCookie, "", { maxAgeSeconds: 0, path: GOOGLE_CALLBACK_PATH, sameSite: "lax" });
    try {
      if (!client) throw new CallbackRefused(GOOGLE_NOT_CONFIGURED);
      if (!checks) throw new CallbackRefused("no sign-in in progress in this browser (missing or expired state cookie)");
      const identity = await client.finishAuthorization(callbackUrl(req, config.publicUrl), checks);
      if (!identity.emailVerified || !identity.email) throw new CallbackRefused("the provider did not vouch for the email");
      await checkCarriedInvitation(deps.db, checks.invite, identity.email);
      const user = await findOrCreateGoogleUser(
        deps.db,
        { subject: identity.subject, email: identity.email, name: identity.name },
        { now: deps.now, ip: req.ip, userAgent: req.headers["user-agent"] ?? null },
      );
      const browserSecret = generateToken();
      const second = await googleSecondStep(deps.db, user, browserSecret, deps.now());
      if (second) {
        setCookie(res, config, signInBrowserCookieName(config), browserSecret, { maxAgeSeconds: TWO_FACTOR_CHALLENGE_MS / 1000 });
        logger.info({ userId: user.id, step: second.step }, "google sign-in: second factor asked");
        res.redirect(302, `/two-factor#challenge=${second.challenge}&step=${second.step}`);
        return;
      }
      const code = await createLoginCode(deps.db, user.id, browserSecret, deps.now());
      setCookie(res, config, signInBrowserCookieName(config), browserSecret, { maxAgeSeconds: LOGIN_CODE_MS / 1000 });
      logger.info({ userId: user.id }, "google sign-in");
      res.redirect(302, `/profile#session_id=${code}`);
    } catch (err) {
      logCallbackFailure(deps, err);
      res.redirect(302, failureLocation(err, checks?.invite ?? null));
    }
  };
  return { start, callback };
}

/** Back to the landing page, saying why when invitations are the reason (and to the invitation's form, when one was carried). */
function failureLocation(err: unknown, invite: string | null): string {
  if (!(err instanceof GoogleSignUpRefused)) return FAILURE_LOCATION;
  const params = new URLSearchParams({ [AUTH_ERROR_PARAM]: err.reason === "invite_only" ? GOOGLE_REFUSAL.inviteOnly : GOOGLE_REFUSAL.otherEmail });
  if (invite) params.set(INVITE_PARAM, invite);
  return `/?${params}`;
}

/** An invitation token as the start route received it; anything else carries none. */
function inviteOf(value: unknown): string | null {
  return typeof value === "string" && /^[a-z2-7]{1,200}$/.test(value) ? value : null;
}

/**
 * The URL the provider redirected to, rebuilt from PUBLIC_URL (never the Host header): its origin and
 * path must equal the registered redirect URI, and its query carries code, state and iss.
 */
function callbackUrl(req: Request, publicUrl: string): URL {
  const url = new URL(GOOGLE_CALLBACK_PATH, publicUrl);
  url.search = new URL(req.originalUrl, "http://placeholder").search;
  return url;
}

function logCallbackFailure(deps: AppDeps, err: unknown): void {
  const reason = err instanceof Error ? err.message : String(err);
  if (err instanceof CallbackRefused || err instanceof ExternalSignInRefused || err instanceof GoogleSignUpRefused) {
    deps.logger.warn({ reason }, "google sign-in refused");
  } else if (isDatabaseUnavailable(err)) {
    deps.logger.warn({ reason }, "google sign-in failed: database unavailable");
  } else if (isProviderResponseError(err)) {
    // Denied consent, a bad or replayed state or code, a token that fails verification.
    deps.logger.warn({ reason, error: (err as { error?: unknown }).error }, "google sign-in refused by the checks");
  } else {
    deps.logger.error({ err }, "google sign-in failed");
  }
}

/** openid-client's (oauth4webapi's) errors about what the provider answered carry an OAUTH_* code. */
function isProviderResponseError(err: unknown): boolean {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === "string" && code.startsWith("OAUTH_");
}

/** The sign-in's checks, and the invitation whose form it started from, if any. */
type SignInState = AuthorizationChecks & { invite: string | null };

function encodeChecks(state: SignInState): string {
  return Buffer.from(JSON.stringify(state)).toString("base64url");
}

function decodeChecks(value: string | undefined): SignInState | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (typeof parsed !== "object" || parsed === null) return null;
    const { state, nonce, codeVerifier, invite } = parsed as Record<string, unknown>;
    if (typeof state !== "string" || typeof nonce !== "string" || typeof codeVerifier !== "string") return null;
    return { state, nonce, codeVerifier, invite: inviteOf(invite) };
  } catch {
    return null;
  }
}
