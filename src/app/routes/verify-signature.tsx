import { useSiteContent } from "@/features/landing/use-site-content.ts";
import { VerifyForm } from "@/features/signatures/verify-form.tsx";
import { PublicPageShell } from "./public-page-shell.tsx";

/** /signatures/verify: anyone with a PDF signed in the portal checks that it was sealed here and is unaltered. */
export function VerifySignaturePage() {
  const site = useSiteContent();
  const firmName = site.value("company", "name");
  const title = "Verify a signed document";

  return (
    <PublicPageShell
      content={site.value}
      documentTitle={firmName ? `${title} | ${firmName}` : title}
      mainClassName="mx-auto grid w-full max-w-2xl grow content-start gap-6 px-4 py-10 outline-none sm:px-6 md:py-16"
    >
      <div className="grid gap-2">
        <h1 className="text-3xl font-semibold sm:text-4xl">{title}</h1>
        <p className="text-muted-foreground">
          Choose a PDF signed through {firmName || "this"} client portal to check that it was sealed here and has not been changed since, and who
          signed it.
        </p>
      </div>
      <VerifyForm />
    </PublicPageShell>
  );
}
