import { useEffect } from "react";
import { Spinner } from "@/components/ui/spinner.tsx";
import { LegalText } from "@/features/landing/legal-text.tsx";
import { useSiteContent } from "@/features/landing/use-site-content.ts";
import { PublicPageShell } from "./public-page-shell.tsx";

export type LegalPageKind = "privacy" | "terms";

const PAGES: Record<LegalPageKind, { title: string; description: string }> = {
  privacy: {
    title: "Privacy Notice",
    description: "What personal and financial information the firm collects, how it is used, shared and protected, and your choices.",
  },
  terms: { title: "Terms of Use", description: "The terms that apply to the firm's website and client portal." },
};

/** /privacy and /terms: the firm's texts (site content legal.privacy and legal.terms) under the site's header. */
export function LegalPage({ page }: { page: LegalPageKind }) {
  const site = useSiteContent();
  const { title, description } = PAGES[page];
  const firmName = site.value("company", "name");
  const text = site.value("legal", page);

  // Followed from the footer, the page would otherwise open scrolled as far down as the page before.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [page]);
  // index.html carries the site's description; a second <meta> would leave two, so this page's
  // replaces it while the page is shown.
  useEffect(() => {
    const meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) return;
    const before = meta.content;
    meta.content = description;
    return () => {
      meta.content = before;
    };
  }, [description]);

  return (
    <PublicPageShell
      content={site.value}
      documentTitle={firmName ? `${title} | ${firmName}` : title}
      mainClassName="mx-auto w-full max-w-3xl grow px-4 py-12 outline-none sm:px-6 md:py-16"
    >
      <h1 className="text-3xl font-semibold sm:text-4xl">{title}</h1>
      {firmName && <p className="mt-2 text-muted-foreground">{firmName}</p>}
      <div className="mt-8">
        {text ? <LegalText text={text} /> : site.isPending ? <Spinner label={`Loading the ${title.toLowerCase()}…`} /> : null}
      </div>
    </PublicPageShell>
  );
}
