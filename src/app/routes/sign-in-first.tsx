import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { PageSpinner } from "@/components/ui/page-spinner.tsx";
import { type PortalName, signInUrl } from "@/lib/session-ended.ts";
import { useCurrentUser } from "@/lib/use-current-user.ts";

/**
 * For a visitor without a session on a portal page (a link in an email): the portal's sign-in,
 * replacing this entry in the history, which opens at once and comes back to this page (with its
 * query) afterwards (lib/session-ended.ts).
 */
export function SignInFirst({ portal }: { portal: PortalName }) {
  const location = useLocation();
  return <Navigate to={signInUrl(portal, location)} replace />;
}

/** An admin portal page: a spinner while the session is checked, the admin sign-in without one, else the page. */
export function AdminSignedIn({ children }: { children: ReactNode }) {
  const { status } = useCurrentUser();
  if (status === "unknown") return <PageSpinner label="Checking your session…" />;
  if (status === "signed-out") return <SignInFirst portal="admin" />;
  return children;
}
