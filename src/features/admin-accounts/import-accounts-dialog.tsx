import { type ChangeEvent, useState } from "react";
import { FileUp } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { DialogFrame, FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import type { ImportResult } from "@server/domains/accounts/firm-schemas.ts";
import { KIND_LABELS } from "./kind-labels.ts";
import { useImportAccounts } from "./use-account-changes.ts";

/** Many clients at once: a CSV file, its preview (the accounts it makes and the rows it refuses), then the import. */
export function ImportAccountsDialog() {
  const [open, setOpen] = useState(false);
  const [csv, setCsv] = useState<string | null>(null);
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const run = useImportAccounts();

  function openChange(next: boolean) {
    if (next) {
      setCsv(null);
      setPreview(null);
      setProblem(null);
    }
    setOpen(next);
  }

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    setPreview(null);
    setProblem(null);
    if (!file) return;
    const text = await file.text();
    setCsv(text);
    run.mutate(
      { csv: text, dry_run: true },
      { onSuccess: setPreview, onError: (err) => setProblem(errorDetail(err) ?? "The file could not be read.") },
    );
  }

  function importNow() {
    if (!csv) return;
    run.mutate(
      { csv, dry_run: false },
      {
        onSuccess: (result) => {
          const people = result.accounts.reduce((n, a) => n + a.people.length, 0);
          toast.success(`Imported ${count(result.accounts.length, "client account")} with ${count(people, "person", "people")}.`);
          setOpen(false);
        },
        onError: (err) => setProblem(errorDetail(err) ?? "The import failed: nothing was imported."),
      },
    );
  }

  const people = preview?.accounts.reduce((n, a) => n + a.people.length, 0) ?? 0;

  return (
    <DialogFrame
      open={open}
      onOpenChange={openChange}
      trigger={
        <Button variant="outline">
          <FileUp aria-hidden="true" />
          Import CSV
        </Button>
      }
      className="max-h-[90dvh] max-w-2xl overflow-y-auto"
      title="Import client accounts"
      description="A CSV file with the columns account name, kind (individual, household or business), person name and email: one row per person. Rows with the same account name form one account; its first person owns it. Nothing is made until you import."
    >
      <FormField id="import-csv-file" label="CSV file" hint="At most 1,000 rows and 1 MB.">
        <Input type="file" accept=".csv,text/csv" onChange={(e) => void choose(e)} />
      </FormField>
      {run.isPending && !preview && <p className="text-sm text-muted-foreground">Reading the file…</p>}
      <FormAlert message={problem} />
      {preview && (
        <div className="grid gap-4">
          <section aria-labelledby="import-preview-heading" className="grid gap-2">
            <h3 id="import-preview-heading" className="font-semibold">
              {count(preview.accounts.length, "account")}, {count(people, "person", "people")}
            </h3>
            {preview.accounts.length > 0 && (
              <ul aria-label="Accounts to import" className="grid divide-y rounded-lg border text-sm">
                {preview.accounts.map((account) => (
                  <li key={account.name} className="grid gap-1 p-3">
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="font-medium [overflow-wrap:anywhere]">{account.name}</span>
                      <Badge variant="secondary">{KIND_LABELS[account.kind]}</Badge>
                    </div>
                    <ul className="grid gap-0.5 text-muted-foreground">
                      {account.people.map((p) => (
                        <li key={p.line} className="[overflow-wrap:anywhere]">
                          {p.name} · {p.email} · {p.role === "owner" ? "owner" : "member"} ·{" "}
                          {p.action === "invite" ? "invited by email" : "already a client: added at once"}
                        </li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ul>
            )}
          </section>
          {preview.refused.length > 0 && (
            <section aria-labelledby="import-refused-heading" className="grid gap-2">
              <h3 id="import-refused-heading" className="font-semibold">
                {count(preview.refused.length, "row")} refused
              </h3>
              <ul aria-label="Refused rows" className="grid divide-y rounded-lg border border-destructive/30 text-sm">
                {preview.refused.map((r) => (
                  <li key={r.line} className="p-3">
                    Line {r.line}: {r.reason}
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      )}
      <FormDialogFooter
        pending={run.isPending && preview !== null}
        disabled={!preview || preview.accounts.length === 0 || run.isPending}
        submitLabel={`Import ${count(preview?.accounts.length ?? 0, "account")}`}
        pendingLabel="Importing..."
        onClick={importNow}
      />
    </DialogFrame>
  );
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
