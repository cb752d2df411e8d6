import type { ReactNode } from "react";
import { useNavigate } from "react-router";
import { SkipLink } from "@/components/ui/skip-link.tsx";
import { useSignedIn } from "@/features/auth/use-signed-in.ts";
import { SiteFooter } from "@/features/landing/site-footer.tsx";
import { SiteHeader } from "@/features/landing/site-header.tsx";
import type { SiteContentReader } from "@/features/landing/use-site-content.ts";
import { OPEN_PORTAL_STATE } from "./landing.tsx";

type PublicPageShellProps = {
  /** The page's site content (useSiteContent().value), for the header's firm and logo and the footer. */
  content: SiteContentReader;
  /** The document's title. */
  documentTitle: string;
  /** The main region's classes: each page lays out its own. */
  mainClassName: string;
  /** The site's footer under the page (default); the not-found page has none. */
  footer?: boolean;
  children: ReactNode;
};

/** A public page of the site outside the landing page (legal texts, verifying a signature, not found): the site's header, the page, the footer. */
export function PublicPageShell({ content, documentTitle, mainClassName, footer = true, children }: PublicPageShellProps) {
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  return (
    <div className="flex min-h-dvh flex-col">
      <title>{documentTitle}</title>
      <SkipLink />
      <SiteHeader
        homePath="/"
        firmName={content("company", "name")}
        logoSrc={content("company", "logo")}
        signedIn={signedIn !== null}
        onOpenPortal={() => void navigate("/", { state: OPEN_PORTAL_STATE })}
        onOpenDashboard={() => void navigate(signedIn === "admin" ? "/admin/dashboard" : "/dashboard")}
      />
      <main id="main" tabIndex={-1} className={mainClassName}>
        {children}
      </main>
      {footer && <SiteFooter content={content} homePath="/" />}
    </div>
  );
}
