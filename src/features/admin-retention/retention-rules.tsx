import { Archive } from "lucide-react";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { SettingsSection } from "@/components/settings-section.tsx";
import { Button } from "@/components/ui/button.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorOf, focusControl, type FormProblem, serverProblem } from "@/lib/form-problem.ts";
import { FORM_8879_MIN_YEARS, type RetentionSettings } from "@server/domains/retention/schemas.ts";
import { useRetentionSettings, useUpdateRetention } from "./use-retention.ts";

/** The firm's retention rules: how long documents are kept, and what counts as an account's last activity. */
export function RetentionRules() {
  const settings = useRetentionSettings();
  return (
    <SettingsSection
      headingId="retention-rules-heading"
      icon={Archive}
      title="Retention rules"
      description={
        <>
          Once a day the portal deletes for good the documents past these rules: the files, every stored copy and their records, with a receipt in the
          activity trail. An account&apos;s last activity is the latest sign-in of one of its people, upload, message, document request, signature or
          organizer answer.
        </>
      }
    >
      {settings.isPending ? (
        <Spinner label="Loading the retention rules…" />
      ) : settings.data ? (
        <RulesForm key={`${settings.data.years_after_last_activity}-${settings.data.form_8879_years}`} saved={settings.data} />
      ) : (
        <LoadError message="Failed to load the retention rules" onRetry={() => void settings.refetch()} isRetrying={settings.isFetching} />
      )}
    </SettingsSection>
  );
}

function RulesForm({ saved }: { saved: RetentionSettings }) {
  const update = useUpdateRetention();
  const [years, setYears] = useState(String(saved.years_after_last_activity));
  const [form8879, setForm8879] = useState(String(saved.form_8879_years));
  const [problem, setProblem] = useState<FormProblem<"years" | "form8879"> | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const yearsValue = Number(years);
    const form8879Value = Number(form8879);
    if (!Number.isInteger(yearsValue) || yearsValue < 1 || yearsValue > 50) {
      setProblem({ message: "Years after last activity must be a whole number from 1 to 50", field: "years" });
      focusControl("retention-years");
      return;
    }
    if (!Number.isInteger(form8879Value) || form8879Value < FORM_8879_MIN_YEARS || form8879Value > 50) {
      setProblem({ message: `A signed Form 8879 is kept ${FORM_8879_MIN_YEARS} to 50 years`, field: "form8879" });
      focusControl("retention-form-8879");
      return;
    }
    setProblem(null);
    try {
      const result = await update.mutateAsync({ years_after_last_activity: yearsValue, form_8879_years: form8879Value });
      toast.success(`Documents are now kept ${result.years_after_last_activity} years after an account's last activity.`);
    } catch (err) {
      setProblem(serverProblem(err, "The retention rules could not be saved.", { years: /last activity/i, form8879: /8879/i }));
    }
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-4" aria-label="Retention rules">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id="retention-years"
          label="Years kept after an account's last activity"
          hint="Most firms keep client files 7 years."
          error={errorOf(problem, "years")}
        >
          <Input type="number" inputMode="numeric" min={1} max={50} step={1} value={years} onChange={(e) => setYears(e.target.value)} />
        </FormField>
        <FormField
          id="retention-form-8879"
          label="Years a signed Form 8879 is kept"
          hint={`From its signing; at least ${FORM_8879_MIN_YEARS} (IRS). Signed documents are locked ${FORM_8879_MIN_YEARS} years in any case.`}
          error={errorOf(problem, "form8879")}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={FORM_8879_MIN_YEARS}
            max={50}
            step={1}
            value={form8879}
            onChange={(e) => setForm8879(e.target.value)}
          />
        </FormField>
      </div>
      <p className="text-sm text-muted-foreground">
        Documents in the trash are deleted {saved.trash_days} days after they were put there. A legal hold on an account stops every deletion of it,
        the trash included.
      </p>
      <FormAlert message={problem && !problem.field ? problem.message : null} />
      <Button type="submit" className="w-fit" disabled={update.isPending}>
        {update.isPending ? "Saving…" : "Save rules"}
      </Button>
    </form>
  );
}
