import { parse, serialize } from "cookie";
import type { Request, Response } from "express";
import type { Config } from "../config.ts";
import type { DeviceCookie, SessionCookies } from "../trpc/context.ts";
import { DEVICE_TRUST_SECONDS } from "./trusted-devices.ts";

/** `__Host-` pins the cookie to our exact origin, but browsers accept it only over https. */
export function sessionCookieName(config: Config): string {
  return config.secureCookies ? "__Host-session" : "session";
}

/**
 * Set by the Google callback in the browser that finished the sign-in; the one-time login code it
 * hands to /profile is redeemable only with it (external-sign-in.ts).
 */
export function signInBrowserCookieName(config: Config): string {
  return config.secureCookies ? "__Host-google_signin" : "google_signin";
}

function deviceCookieName(config: Config): string {
  return config.secureCookies ? "__Host-device" : "device";
}

/** Read only by the login procedures, which are same-origin POSTs: strict is enough. */
export function deviceCookie(req: Request, res: Response, config: Config): DeviceCookie {
  const name = deviceCookieName(config);
  return {
    value: readCookie(req, name),
    set(value) {
      setCookie(res, config, name, value, { maxAgeSeconds: DEVICE_TRUST_SECONDS, sameSite: "strict" });
    },
  };
}

// A request's cookies are read by the CSRF check, the session, the device and the sign-in cookie:
// the header is parsed once.
const parsedCookies = new WeakMap<Request, Record<string, string | undefined>>();

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  let cookies = parsedCookies.get(req);
  if (!cookies) {
    cookies = parse(header);
    parsedCookies.set(req, cookies);
  }
  return cookies[name];
}

export function setCookie(
  res: Response,
  config: Config,
  name: string,
  value: string,
  opts: { maxAgeSeconds: number; path?: string; sameSite?: "lax" | "strict" },
): void {
  res.append(
    "Set-Cookie",
    serialize(name, value, {
      httpOnly: true,
      secure: config.secureCookies,
      sameSite: opts.sameSite ?? "lax",
      path: opts.path ?? "/",
      maxAge: opts.maxAgeSeconds,
    }),
  );
}

export function sessionCookies(res: Response, config: Config, now: () => Date): SessionCookies {
  const name = sessionCookieName(config);
  return {
    set(token, expiresAt) {
      const maxAgeSeconds = Math.max(0, Math.round((expiresAt.getTime() - now().getTime()) / 1000));
      setCookie(res, config, name, token, { maxAgeSeconds });
    },
    clear() {
      setCookie(res, config, name, "", { maxAgeSeconds: 0 });
    },
  };
}

/** The session token of a request: `Authorization: Bearer` (other frontends) or the session cookie. */
export function readSessionToken(req: Request, config: Config): { token: string | null; source: "bearer" | "cookie" | null } {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) {
    const token = auth.slice("Bearer ".length).trim();
    if (token) return { token, source: "bearer" };
  }
  const cookie = readCookie(req, sessionCookieName(config));
  return cookie ? { token: cookie, source: "cookie" } : { token: null, source: null };
}
