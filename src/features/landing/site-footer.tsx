import type { SiteContentReader } from "./use-site-content.ts";
import { BrandMark } from "@/components/brand-mark.tsx";
import { SECTION_LINKS } from "./site-header.tsx";

const FOOTER_SERVICES = ["Bookkeeping", "Tax Preparation & Planning", "Payroll", "Business Consulting"];

export function SiteFooter({ content }: { content: SiteContentReader }) {
  const firmName = content("company", "name");
  return (
    <footer className="bg-primary text-primary-foreground">
      <div className="mx-auto grid max-w-content gap-10 px-4 py-12 sm:px-6 md:grid-cols-3">
        <div className="grid content-start gap-3">
          <BrandMark name={firmName} logoSrc={content("company", "logo")} />
          <p className="text-sm text-primary-foreground/80">{content("contact", "address")}</p>
          <p className="text-sm text-primary-foreground/80">
            {content("contact", "phone")} · {content("contact", "email")}
          </p>
        </div>
        <nav aria-label="Services" className="grid content-start gap-2 text-sm">
          <h2 className="font-semibold">Services</h2>
          {FOOTER_SERVICES.map((service) => (
            <a key={service} href="#services" className="w-fit text-primary-foreground/80 hover:text-primary-foreground">
              {service}
            </a>
          ))}
        </nav>
        <nav aria-label="Footer" className="grid content-start gap-2 text-sm">
          <h2 className="font-semibold">Company</h2>
          {SECTION_LINKS.map((link) => (
            <a key={link.href} href={link.href} className="w-fit text-primary-foreground/80 hover:text-primary-foreground">
              {link.label}
            </a>
          ))}
        </nav>
      </div>
      <div className="border-t border-primary-foreground/15">
        <p className="mx-auto max-w-content px-4 py-5 text-sm text-primary-foreground/80 sm:px-6">
          © {new Date().getFullYear()} {firmName}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
