import { RETURN_TO_PARAM, SESSION_ENDED_PARAM } from "./return-params.ts";

/**
 * The way into a portal page without a session, and back to it after signing in:
 * - a visitor with no session who opens a portal page (a link in an email) is sent to that
 *   portal's sign-in with the page in `next` (`signInUrl`), and the sign-in opens at once;
 * - a portal call that answers 401 (the session expired, was ended elsewhere, or a password reset
 *   ended it) makes a full page load of the sign-in page (`endPortalSession`), which drops every
 *   cached answer of that user and says why.
 * Either way a sign-in returns to `next` when it is one of the portal's own pages (`returnPath`).
 */
export const SESSION_ENDED_MESSAGE = "Your session has ended. Please sign in again.";
export { RETURN_TO_PARAM, SESSION_ENDED_PARAM };

const ID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** `pages`: the portal's own pages, which a sign-in may return to (a pattern for a page with an id in its path). */
type Portal = { signIn: string; home: string; pages: Array<string | RegExp> };
const CLIENT_PORTAL: Portal = {
  signIn: "/",
  home: "/dashboard",
  pages: ["/dashboard", "/settings", new RegExp(`^/organizers/${ID}$`, "i"), new RegExp(`^/signatures/${ID}$`, "i")],
};
const ADMIN_PORTAL: Portal = {
  signIn: "/admin",
  home: "/admin/dashboard",
  pages: [
    "/admin/dashboard",
    new RegExp(`^/admin/users/${ID}$`, "i"),
    new RegExp(`^/admin/accounts/${ID}$`, "i"),
    new RegExp(`^/admin/accounts/${ID}/access$`, "i"),
  ],
};
const PORTALS = { client: CLIENT_PORTAL, admin: ADMIN_PORTAL } as const;
export type PortalName = keyof typeof PORTALS;

function isPageOf(portal: Portal, pathname: string): boolean {
  return portal.pages.some((page) => (typeof page === "string" ? page === pathname : page.test(pathname)));
}

function portalOf(pathname: string): Portal | undefined {
  return [CLIENT_PORTAL, ADMIN_PORTAL].find((portal) => isPageOf(portal, pathname));
}

type Place = { pathname: string; search: string };

/** The portal's sign-in page that comes back to `location` afterwards (`ended`: and says the session ended). */
function signInFor(portal: Portal, location: Place, ended: boolean): string {
  const params = new URLSearchParams(ended ? { [SESSION_ENDED_PARAM]: "1" } : {});
  params.set(RETURN_TO_PARAM, location.pathname + location.search);
  return `${portal.signIn}?${params.toString()}`;
}

/** Where a visitor without a session who opened `location`, a page of `portal`, signs in first. */
export function signInUrl(portal: PortalName, location: Place): string {
  return signInFor(PORTALS[portal], location, false);
}

/**
 * `value` as a path of this site with its query, or null: only a path that starts with one `/`,
 * whose characters are all printable ASCII but `\` (which browsers read as `/`, so `/\host` is
 * `//host`), and which the URL parser keeps on this origin. `//host`, `https://host/`,
 * `javascript:...` and `/%2F...` tricks all give null.
 */
export function sameOriginPath(value: string | null | undefined): string | null {
  if (!value?.startsWith("/") || value.startsWith("//")) return null;
  if (!/^[\x21-\x7e]*$/.test(value) || value.includes("\\")) return null;
  const base = "http://portal.invalid";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  return url.origin === base ? url.pathname + url.search : null;
}

/**
 * The page to return to after signing in: `value` if it is a same-origin path (sameOriginPath) to
 * one of the portal's own pages, with its query; anything else gives the portal's home.
 */
export function returnPath(value: string | null, portal: PortalName): string {
  const which = PORTALS[portal];
  const path = sameOriginPath(value);
  if (path === null) return which.home;
  const pathname = path.split("?", 1)[0]!;
  return isPageOf(which, pathname) ? path : which.home;
}

/** What the sign-in says to a visitor sent from `path` (a returnPath of the client portal): what waits for them after it. */
export function returnNotice(path: string): string {
  const url = new URL(path, "http://portal.invalid");
  if (url.pathname.startsWith("/signatures/")) return "Log in to open the document that waits for your signature. You will go straight to it.";
  if (url.pathname.startsWith("/organizers/")) return "Log in to open your organizer. You will go straight to it.";
  if (url.pathname === "/dashboard") {
    const tab = url.searchParams.get("tab");
    if (tab === "messages") return "Log in to read your messages. You will go straight to them.";
    if (tab === "appointments") return "Log in to see your appointments. You will go straight to them.";
  }
  return "Log in to open the page your link leads to. You will go straight to it.";
}

const GOOGLE_RETURN_KEY = "portal.returnAfterGoogle";

/** Keeps `path` (a returnPath) for the end of a Google sign-in, which leaves the site and comes back at /profile or /two-factor. */
export function rememberReturnAcrossGoogle(path: string | undefined): void {
  try {
    if (path) window.sessionStorage.setItem(GOOGLE_RETURN_KEY, path);
    else window.sessionStorage.removeItem(GOOGLE_RETURN_KEY);
  } catch {
    // Storage refused (a private window's quota): the sign-in ends on the dashboard, as it always did.
  }
}

/** Where a Google sign-in ends: the page kept by rememberReturnAcrossGoogle (once), else the dashboard. */
export function takeReturnAfterGoogle(): string {
  let kept: string | null = null;
  try {
    kept = window.sessionStorage.getItem(GOOGLE_RETURN_KEY);
    window.sessionStorage.removeItem(GOOGLE_RETURN_KEY);
  } catch {
    // As above.
  }
  return returnPath(kept, "client");
}

let leaving = false;

/** Leaves a portal page whose session ended; many calls failing at once navigate once. */
export function endPortalSession(): void {
  if (leaving || typeof window === "undefined") return;
  const portal = portalOf(window.location.pathname);
  if (!portal) return;
  leaving = true;
  window.location.replace(signInFor(portal, window.location, true));
}
