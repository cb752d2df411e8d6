/**
 * What happens when a portal call answers 401 (the session expired, was ended elsewhere, or a
 * password reset ended it): a full page load of the portal's sign-in page, which drops every
 * cached answer of that user, says why, and after signing in returns to the page the user was on.
 */
export const SESSION_ENDED_MESSAGE = "Your session has ended. Please sign in again.";
export const SESSION_ENDED_PARAM = "session_ended";
export const RETURN_TO_PARAM = "next";

/** `pages`: the portal's own pages, which a sign-in may return to (a pattern for a page with an id in its path). */
type Portal = { signIn: string; home: string; pages: Array<string | RegExp> };
const CLIENT_PORTAL: Portal = { signIn: "/", home: "/dashboard", pages: ["/dashboard", "/settings"] };
const ADMIN_PORTAL: Portal = { signIn: "/admin", home: "/admin/dashboard", pages: ["/admin/dashboard", /^\/admin\/users\/[0-9a-f-]{36}$/i] };

function isPageOf(portal: Portal, pathname: string): boolean {
  return portal.pages.some((page) => (typeof page === "string" ? page === pathname : page.test(pathname)));
}

function portalOf(pathname: string): Portal | undefined {
  return [CLIENT_PORTAL, ADMIN_PORTAL].find((portal) => isPageOf(portal, pathname));
}

/** The sign-in page to go to from `location` when its session ended; undefined outside the portals. */
function sessionEndedUrl(location: { pathname: string; search: string }): string | undefined {
  const portal = portalOf(location.pathname);
  if (!portal) return undefined;
  const params = new URLSearchParams({ [SESSION_ENDED_PARAM]: "1", [RETURN_TO_PARAM]: location.pathname + location.search });
  return `${portal.signIn}?${params.toString()}`;
}

/**
 * The page to return to after signing in, if `value` is one of the portal's own pages (with its
 * query); anything else (another host, `//host`, a path outside the portal) gives the portal's home.
 */
export function returnPath(value: string | null, portal: "client" | "admin"): string {
  const which = portal === "client" ? CLIENT_PORTAL : ADMIN_PORTAL;
  const { home } = which;
  if (!value?.startsWith("/") || value.startsWith("//")) return home;
  const base = "http://portal.invalid";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return home;
  }
  return url.origin === base && isPageOf(which, url.pathname) ? url.pathname + url.search : home;
}

let leaving = false;

/** Leaves a portal page whose session ended; many calls failing at once navigate once. */
export function endPortalSession(): void {
  if (leaving || typeof window === "undefined") return;
  const target = sessionEndedUrl(window.location);
  if (!target) return;
  leaving = true;
  window.location.replace(target);
}
