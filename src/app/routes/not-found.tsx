import { Link, useNavigate } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { SkipLink } from "@/components/ui/skip-link.tsx";
import { useSignedIn } from "@/features/auth/use-signed-in.ts";
import { SiteHeader } from "@/features/landing/site-header.tsx";
import { useSiteContent } from "@/features/landing/use-site-content.ts";
import { OPEN_PORTAL_STATE } from "./landing.tsx";

/** The site's header over the message, so a visitor who followed a stale link can go on from here. */
export function NotFoundPage() {
  const site = useSiteContent();
  const signedIn = useSignedIn();
  const navigate = useNavigate();

  return (
    <div className="flex min-h-dvh flex-col">
      <title>Page not found</title>
      <SkipLink />
      <SiteHeader
        homePath="/"
        firmName={site.value("company", "name")}
        logoSrc={site.value("company", "logo")}
        signedIn={signedIn !== null}
        onOpenPortal={() => void navigate("/", { state: OPEN_PORTAL_STATE })}
        onOpenDashboard={() => void navigate(signedIn === "admin" ? "/admin/dashboard" : "/dashboard")}
      />
      <main id="main" tabIndex={-1} className="mx-auto grid max-w-content grow place-content-center gap-4 px-6 py-16 text-center outline-none">
        <p className="text-sm font-semibold text-accent tabular-nums">404</p>
        <h1 className="text-3xl font-semibold">Page not found</h1>
        <p className="text-muted-foreground">The page you are looking for does not exist or has moved.</p>
        <div>
          <Button asChild variant="outline">
            <Link to="/">Back to the home page</Link>
          </Button>
        </div>
      </main>
    </div>
  );
}
