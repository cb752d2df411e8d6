import { ExternalLink, FileText, FolderOpen, Landmark } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { DEFAULT_TAX_YEAR } from "@server/domains/firm-setup/schemas.ts";
import { trpc } from "@/lib/trpc.ts";
import { useTaxYear } from "./use-tax-year.ts";

/** An individual's or a household's forms. */
const PERSONAL_FORMS = [
  { form: "Form 1040", about: "U.S. Individual Income Tax Return", href: "https://www.irs.gov/forms-pubs/about-form-1040" },
  { form: "Schedule C", about: "Profit or Loss From Business", href: "https://www.irs.gov/forms-pubs/about-schedule-c-form-1040" },
  { form: "Form W-2", about: "Wage and Tax Statement", href: "https://www.irs.gov/forms-pubs/about-form-w-2" },
  { form: "Form 1099-NEC", about: "Nonemployee Compensation", href: "https://www.irs.gov/forms-pubs/about-form-1099-nec" },
  { form: "Form W-9", about: "Request for Taxpayer Identification Number", href: "https://www.irs.gov/forms-pubs/about-form-w-9" },
] as const;

/** A business account's: its own returns, payroll, and what it files for its workers (issue 48: not a person's 1040). */
const BUSINESS_FORMS = [
  { form: "Form 1120-S", about: "U.S. Income Tax Return for an S Corporation", href: "https://www.irs.gov/forms-pubs/about-form-1120-s" },
  { form: "Form 1065", about: "U.S. Return of Partnership Income", href: "https://www.irs.gov/forms-pubs/about-form-1065" },
  { form: "Form 1120", about: "U.S. Corporation Income Tax Return", href: "https://www.irs.gov/forms-pubs/about-form-1120" },
  { form: "Form 941", about: "Employer's Quarterly Federal Tax Return", href: "https://www.irs.gov/forms-pubs/about-form-941" },
  { form: "Form W-2", about: "Wage and Tax Statement, for your employees", href: "https://www.irs.gov/forms-pubs/about-form-w-2" },
  { form: "Form 1099-NEC", about: "Nonemployee Compensation, for your contractors", href: "https://www.irs.gov/forms-pubs/about-form-1099-nec" },
  { form: "Form W-9", about: "Request for Taxpayer Identification Number", href: "https://www.irs.gov/forms-pubs/about-form-w-9" },
] as const;

const externalLink = { target: "_blank", rel: "noopener noreferrer" } as const;

/** The common forms of the year the firm set (a firm setting, issue 31) and how to get prior-year returns. */
export function TaxFormsTab({ onOpenDocuments }: { onOpenDocuments: () => void }) {
  const taxYear = useTaxYear();
  const account = trpc.accounts.current.useQuery(undefined, { retry: false });
  const business = account.data?.kind === "business";
  const forms = business ? BUSINESS_FORMS : PERSONAL_FORMS;
  // Without its answer the tab still shows the spec's year rather than nothing.
  const year = taxYear.data?.tax_year ?? (taxYear.isPending ? null : DEFAULT_TAX_YEAR);
  if (year === null || account.isPending) {
    return (
      <div className="grid gap-6">
        <h2 className="text-xl font-semibold">Tax Forms</h2>
        <Spinner label="Loading tax forms…" />
      </div>
    );
  }
  return (
    <div className="grid gap-6">
      <h2 className="text-xl font-semibold">Tax Forms</h2>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <div className="mb-1 flex size-10 items-center justify-center rounded-lg bg-accent-soft text-accent-soft-foreground">
              <FileText aria-hidden="true" className="size-5" />
            </div>
            <CardTitle asChild>
              <h3>{year} Tax Forms</h3>
            </CardTitle>
            <CardDescription>
              {business
                ? `The forms a business most often files for the ${year} tax year, with the IRS's instructions.`
                : `The forms most of our clients need for the ${year} tax year, with the IRS's instructions.`}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y">
              {forms.map(({ form, about, href }) => (
                <li key={form} className="flex items-center justify-between gap-4 py-3 first:pt-0 last:pb-0">
                  <span className="grid min-w-0">
                    <span className="text-sm font-medium">{form}</span>
                    <span className="text-sm text-muted-foreground">{about}</span>
                  </span>
                  <Button asChild variant="outline" size="sm">
                    <a href={href} {...externalLink}>
                      View<span className="sr-only"> {form} on IRS.gov (opens in a new tab)</span>
                      <ExternalLink aria-hidden="true" />
                    </a>
                  </Button>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <div className="mb-1 flex size-10 items-center justify-center rounded-lg bg-secondary text-secondary-foreground">
              <Landmark aria-hidden="true" className="size-5" />
            </div>
            <CardTitle asChild>
              <h3>Prior Year Returns</h3>
            </CardTitle>
            <CardDescription>Returns from earlier years help us carry forward losses, depreciation and estimated payments.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <p className="text-sm">
              Upload copies of your last three years' returns to your documents, or request a free transcript from the IRS if you no longer have them.
            </p>
            <div className="flex flex-wrap gap-3">
              <Button onClick={onOpenDocuments}>
                <FolderOpen aria-hidden="true" />
                Upload Prior Returns
              </Button>
              <Button asChild variant="outline">
                <a href="https://www.irs.gov/individuals/get-transcript" {...externalLink}>
                  Get IRS Transcript<span className="sr-only"> (opens in a new tab)</span>
                  <ExternalLink aria-hidden="true" />
                </a>
              </Button>
            </div>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
