import { Briefcase, Calculator, ClipboardList, ExternalLink, FileText, type LucideIcon, Stamp, TrendingUp, Wallet } from "lucide-react";
import type { Service, ServiceIcon } from "@server/domains/site/schemas.ts";

const ICONS: Record<ServiceIcon, LucideIcon> = {
  calculator: Calculator,
  "file-text": FileText,
  stamp: Stamp,
  "clipboard-list": ClipboardList,
  wallet: Wallet,
  "trending-up": TrendingUp,
  briefcase: Briefcase,
};

/** The firm's services as cards (site content `services.list`; the specification's six by default). */
export function ServicesSection({ services }: { services: Service[] }) {
  return (
    <section id="services" aria-labelledby="services-title" className="scroll-mt-28 border-y bg-card">
      <div className="mx-auto grid max-w-content gap-10 px-4 py-16 sm:px-6 md:py-24">
        <div className="grid max-w-2xl gap-3">
          <p className="text-sm font-semibold text-accent">Services</p>
          <h2 id="services-title" className="text-3xl font-semibold sm:text-4xl">
            Everything your books need, in one place
          </h2>
          <p className="text-muted-foreground">One team for the numbers, the filings and the advice, all year round.</p>
        </div>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {services.map((service) => {
            const Icon = ICONS[service.icon] ?? Briefcase;
            // Another site opens in a new tab; a page of this one in the same.
            const external = !service.link.startsWith("/");
            return (
              <li key={service.id} className="flex flex-col gap-3 rounded-xl border bg-background p-6">
                <span className="inline-flex size-10 items-center justify-center rounded-lg bg-accent-soft text-accent-soft-foreground">
                  <Icon className="size-5" />
                </span>
                <h3 className="text-lg font-semibold break-words">{service.title}</h3>
                {service.description && <p className="text-sm break-words text-muted-foreground">{service.description}</p>}
                {service.link && (
                  <a
                    href={service.link}
                    {...(external && { target: "_blank", rel: "noopener noreferrer" })}
                    className="mt-auto inline-flex w-fit items-center gap-1.5 text-sm font-medium text-accent underline-offset-4 hover:underline"
                  >
                    {service.link_text || `More about ${service.title}`}
                    {external && (
                      <>
                        <ExternalLink className="size-3.5" />
                        <span className="sr-only">(opens in a new tab)</span>
                      </>
                    )}
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
