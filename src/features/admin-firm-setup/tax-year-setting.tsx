import { CalendarRange } from "lucide-react";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { SettingsSection } from "@/components/settings-section.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { FIRST_TAX_YEAR } from "@server/domains/firm-setup/schemas.ts";
import { useSetTaxYear, useTaxYearSetting } from "./use-tax-year-setting.ts";

/** The year the clients' Tax Forms tab names ("2025 Tax Forms"). */
export function TaxYearSetting() {
  const setting = useTaxYearSetting();
  const save = useSetTaxYear();
  const [typed, setTyped] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const year = Number(typed);
    setProblem(null);
    save.mutate(
      { tax_year: typed !== null && typed.trim() !== "" && Number.isFinite(year) ? year : Number.NaN },
      {
        onSuccess: (saved) => {
          setTyped(null);
          toast.success(`The Tax Forms tab now shows ${saved.tax_year}.`);
        },
        onError: (err) => setProblem(errorDetail(err) ?? "The tax year could not be saved."),
      },
    );
  }

  return (
    <SettingsSection
      headingId="tax-year-heading"
      icon={CalendarRange}
      title="Tax year"
      description={<>The year of the forms your clients see in their portal&apos;s Tax Forms tab.</>}
    >
      {setting.data ? (
        <form onSubmit={submit} className="flex flex-wrap items-end gap-3" noValidate>
          <div className="grid gap-2">
            <Label htmlFor="tax-year">Tax year</Label>
            <Input
              id="tax-year"
              inputMode="numeric"
              className="w-32 tabular-nums"
              value={typed ?? String(setting.data.tax_year)}
              onChange={(event) => setTyped(event.target.value)}
              aria-invalid={problem !== null || undefined}
              aria-describedby={problem ? "tax-year-error tax-year-hint" : "tax-year-hint"}
            />
          </div>
          <Button type="submit" disabled={save.isPending || typed === null}>
            {save.isPending ? "Saving..." : "Save tax year"}
          </Button>
          <p id="tax-year-hint" className="basis-full text-xs text-muted-foreground">
            From {FIRST_TAX_YEAR} to next year.
          </p>
          {problem && (
            <p id="tax-year-error" role="alert" className="basis-full text-sm text-destructive">
              {problem}
            </p>
          )}
        </form>
      ) : setting.isPending ? (
        <Spinner label="Loading the tax year…" />
      ) : (
        <LoadError message="Failed to load the tax year" onRetry={() => void setting.refetch()} isRetrying={setting.isFetching} />
      )}
    </SettingsSection>
  );
}
