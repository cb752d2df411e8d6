import { Calculator, ClipboardList, ExternalLink, FileText, type LucideIcon, Stamp, TrendingUp, Wallet } from "lucide-react";

type Service = { title: string; description: string; icon: LucideIcon; external?: boolean };

const SERVICES: Service[] = [
  { title: "Bookkeeping", description: "Monthly books, reconciliations and reports you can read, kept current all year.", icon: Calculator },
  {
    title: "Tax Preparation & Planning",
    description: "Business and personal returns filed on time, with planning that lowers next year's bill.",
    icon: FileText,
  },
  { title: "Notary Services", description: "Documents notarized quickly through our partner notary service.", icon: Stamp, external: true },
  {
    title: "Administrative Services",
    description: "Filings, correspondence and the paperwork that keeps your business in good standing.",
    icon: ClipboardList,
  },
  { title: "Payroll", description: "Pay runs, withholdings and payroll tax filings handled on schedule, every time.", icon: Wallet },
  { title: "Business Consulting", description: "Entity choice, budgets and cash-flow planning from people who know your numbers.", icon: TrendingUp },
];

export function ServicesSection({ notaryUrl }: { notaryUrl: string | undefined }) {
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
          {SERVICES.map((service) => (
            <li key={service.title} className="flex flex-col gap-3 rounded-xl border bg-background p-6">
              <span className="inline-flex size-10 items-center justify-center rounded-lg bg-accent-soft text-accent-soft-foreground">
                <service.icon className="size-5" />
              </span>
              <h3 className="text-lg font-semibold">{service.title}</h3>
              <p className="text-sm text-muted-foreground">{service.description}</p>
              {service.external && notaryUrl && (
                <a
                  href={notaryUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="mt-auto inline-flex w-fit items-center gap-1.5 text-sm font-medium text-accent underline-offset-4 hover:underline"
                >
                  Visit the notary site
                  <ExternalLink className="size-3.5" />
                  <span className="sr-only">(opens in a new tab)</span>
                </a>
              )}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
