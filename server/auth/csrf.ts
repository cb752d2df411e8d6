import type { RequestHandler } from "express";
import type { Config } from "../config.ts";
import { readCookie, sessionCookieName } from "./cookies.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Refuses state-changing requests that a browser sent from another site (docs/security.md, cross-site requests),
 * before any body parsing or procedure runs. Fetch metadata first; Origin, then Referer, for older
 * browsers. A request with none of these headers comes from outside a browser: it is let through
 * only when it carries no session cookie (a cookie is what a forged request would borrow).
 */
export function csrfProtection(config: Config): RequestHandler {
  const ownOrigin = config.publicUrl;
  const cookieName = sessionCookieName(config);
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const hasCookie = readCookie(req, cookieName) !== undefined;
    if (!hasCookie && req.headers.authorization?.startsWith("Bearer ")) return next();

    const fetchSite = req.headers["sec-fetch-site"];
    let allowed: boolean;
    if (typeof fetchSite === "string") {
      allowed = fetchSite === "same-origin" || fetchSite === "none";
    } else if (typeof req.headers.origin === "string") {
      allowed = req.headers.origin === ownOrigin;
    } else if (typeof req.headers.referer === "string") {
      allowed = originOf(req.headers.referer) === ownOrigin;
    } else {
      allowed = !hasCookie;
    }
    if (allowed) return next();
    res.status(403).json({ detail: "Cross-site request refused" });
  };
}
