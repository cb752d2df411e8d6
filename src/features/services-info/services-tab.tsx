import type { LucideIcon } from "lucide-react";
import { BriefcaseBusiness, Calculator, Check, Receipt, Wallet } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card.tsx";

const SERVICE_GROUPS: { title: string; icon: LucideIcon; items: string[] }[] = [
  {
    title: "Accounting Services",
    icon: Calculator,
    items: ["Monthly bookkeeping", "Bank and credit card reconciliation", "Financial statements", "Accounts payable and receivable"],
  },
  {
    title: "Tax Services",
    icon: Receipt,
    items: ["Individual tax returns", "Business tax returns", "Tax planning and estimated payments", "IRS notices and correspondence"],
  },
  {
    title: "Business Consulting",
    icon: BriefcaseBusiness,
    items: ["Business formation and entity choice", "Budgeting and cash-flow planning", "Financial analysis", "Growth and exit planning"],
  },
  {
    title: "Payroll Services",
    icon: Wallet,
    items: ["Payroll processing and direct deposit", "Payroll tax filings", "W-2 and 1099 preparation", "New-hire reporting"],
  },
];

/** Static overview of what the firm does for its clients. */
export function ServicesTab() {
  return (
    <div className="grid gap-6">
      <h2 className="text-xl font-semibold">Services</h2>
      <div className="grid gap-6 md:grid-cols-2">
        {SERVICE_GROUPS.map(({ title, icon: Icon, items }) => (
          <Card key={title}>
            <CardHeader className="flex-row items-center gap-3">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent-soft text-accent-soft-foreground">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <CardTitle asChild>
                <h3>{title}</h3>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="grid gap-2.5">
                {items.map((item) => (
                  <li key={item} className="flex items-start gap-2 text-sm">
                    <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent" />
                    {item}
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        ))}
      </div>
    </div>
  );
}
