import { useNavigate } from "react-router";
import { SkipLink } from "@/components/ui/skip-link.tsx";
import { useSignedIn } from "@/features/auth/use-signed-in.ts";
import { SiteFooter } from "@/features/landing/site-footer.tsx";
import { SiteHeader } from "@/features/landing/site-header.tsx";
import { useSiteContent } from "@/features/landing/use-site-content.ts";
import { VerifyForm } from "@/features/signatures/verify-form.tsx";
import { OPEN_PORTAL_STATE } from "./landing.tsx";

/** /signatures/verify: anyone with a PDF signed in the portal checks that it was sealed here and is unaltered. */
export function VerifySignaturePage() {
  const site = useSiteContent();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const firmName = site.value("company", "name");
  const title = "Verify a signed document";

  return (
    <div className="flex min-h-dvh flex-col">
      <title>{firmName ? `${title} | ${firmName}` : title}</title>
      <SkipLink />
      <SiteHeader
        homePath="/"
        firmName={firmName}
        logoSrc={site.value("company", "logo")}
        signedIn={signedIn !== null}
        onOpenPortal={() => void navigate("/", { state: OPEN_PORTAL_STATE })}
        onOpenDashboard={() => void navigate(signedIn === "admin" ? "/admin/dashboard" : "/dashboard")}
      />
      <main id="main" tabIndex={-1} className="mx-auto grid w-full max-w-2xl grow content-start gap-6 px-4 py-10 outline-none sm:px-6 md:py-16">
        <div className="grid gap-2">
          <h1 className="text-3xl font-semibold sm:text-4xl">{title}</h1>
          <p className="text-muted-foreground">
            Choose a PDF signed through {firmName || "this"} client portal to check that it was sealed here and has not been changed since, and who
            signed it.
          </p>
        </div>
        <VerifyForm />
      </main>
      <SiteFooter content={site.value} homePath="/" />
    </div>
  );
}
