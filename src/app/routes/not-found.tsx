import { Link } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { useSiteContent } from "@/features/landing/use-site-content.ts";
import { PublicPageShell } from "./public-page-shell.tsx";

/** The site's header over the message, so a visitor who followed a stale link can go on from here. */
export function NotFoundPage() {
  const site = useSiteContent();

  return (
    <PublicPageShell
      content={site.value}
      documentTitle="Page not found"
      mainClassName="mx-auto grid max-w-content grow place-content-center gap-4 px-6 py-16 text-center outline-none"
      footer={false}
    >
      <p className="text-sm font-semibold text-accent tabular-nums">404</p>
      <h1 className="text-3xl font-semibold">Page not found</h1>
      <p className="text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <div>
        <Button asChild variant="outline">
          <Link to="/">Back to the home page</Link>
        </Button>
      </div>
    </PublicPageShell>
  );
}
