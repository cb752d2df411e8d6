import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router";
import type { SiteContentReader } from "./use-site-content.ts";
import { SHIPPED_IMAGES, siteImageSrc } from "@/lib/site-image.ts";
import { SECTION_LINKS } from "./site-header.tsx";
import { readServices } from "./services.ts";

type SiteFooterProps = {
  content: SiteContentReader;
  /** "/" on pages other than the home page, so the section links lead to it. */
  homePath?: "" | "/";
};

export function SiteFooter({ content, homePath = "" }: SiteFooterProps) {
  const firmName = content("company", "name");
  const { i18n, t } = useLingui();
  const year = new Date().getFullYear();
  return (
    <footer className="bg-primary text-primary-foreground">
      <div className="mx-auto grid max-w-content gap-10 px-4 py-12 sm:px-6 md:grid-cols-3">
        <div className="grid content-start gap-3">
          {/* The full name, wrapping: the footer is where nothing of the firm's name is cut. */}
          <p className="flex items-start gap-2.5 font-semibold tracking-tight">
            <img
              src={siteImageSrc(content("company", "logo"), SHIPPED_IMAGES.logo)}
              alt=""
              width={32}
              height={32}
              className="size-8 shrink-0 rounded-md"
            />
            <span className="min-w-0 pt-1 break-words">{firmName}</span>
          </p>
          <p className="text-sm text-primary-foreground/80">{content("contact", "address")}</p>
          <p className="text-sm text-primary-foreground/80">
            {content("contact", "phone")} · {content("contact", "email")}
          </p>
        </div>
        <nav aria-label={t`Services`} className="grid content-start gap-2 text-sm">
          <h2 className="font-semibold">
            <Trans>Services</Trans>
          </h2>
          {/* Every service, as the services section lists them. */}
          {readServices(content("services", "list")).map((service) => (
            <a key={service.id} href={`${homePath}#services`} className="w-fit break-words text-primary-foreground/80 hover:text-primary-foreground">
              {service.title}
            </a>
          ))}
        </nav>
        <nav aria-label={t`Footer`} className="grid content-start gap-2 text-sm">
          <h2 className="font-semibold">
            <Trans>Company</Trans>
          </h2>
          {SECTION_LINKS.map((link) => (
            <a key={link.href} href={homePath + link.href} className="w-fit text-primary-foreground/80 hover:text-primary-foreground">
              {i18n._(link.label)}
            </a>
          ))}
          {/* Anyone holding a PDF signed in the portal can check its seal (issue 35). */}
          <Link to="/signatures/verify" className="w-fit text-primary-foreground/80 hover:text-primary-foreground">
            <Trans>Verify a signed document</Trans>
          </Link>
        </nav>
      </div>
      <div className="border-t border-primary-foreground/15">
        <div className="mx-auto flex max-w-content flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-5 text-sm text-primary-foreground/80 sm:px-6">
          <p>
            <Trans>
              © {year} {firmName}. All rights reserved.
            </Trans>
          </p>
          <nav aria-label={t`Legal`} className="flex gap-5">
            <Link to="/privacy" className="underline-offset-4 hover:text-primary-foreground hover:underline">
              <Trans>Privacy Notice</Trans>
            </Link>
            <Link to="/terms" className="underline-offset-4 hover:text-primary-foreground hover:underline">
              <Trans>Terms of Use</Trans>
            </Link>
          </nav>
        </div>
      </div>
    </footer>
  );
}
