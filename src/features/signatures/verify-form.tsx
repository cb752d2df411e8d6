import { type FormEvent, useId, useState } from "react";
import { CircleAlert, CircleCheck, FileSearch } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { KIND_LABELS } from "@/lib/signature-fields.ts";
import type { SealVerification } from "@server/domains/signatures/schemas.ts";

const IDENTITY_LABELS = {
  email_code: "emailed code",
  second_factor: "second factor",
  kba: "knowledge-based check",
  in_person: "in person, photo ID",
} as const;

/** The answer as JSON carries dates as text. */
type Answer = Omit<SealVerification, "request"> & {
  request:
    | (Omit<NonNullable<SealVerification["request"]>, "completed_at" | "signers"> & {
        completed_at: string | null;
        signers: Array<{ name: string; email: string; signed_at: string | null; identity_method: keyof typeof IDENTITY_LABELS | null }>;
      })
    | null;
};

/** Anyone with a signed PDF checks it here (POST /api/signatures/verify): sealed by this portal and unchanged since, with its signers. */
export function VerifyForm() {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [checking, setChecking] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setAnswer(null);
    if (!file) {
      setError("Choose the PDF to check");
      return;
    }
    setChecking(true);
    try {
      const form = new FormData();
      form.append("file", file, file.name);
      const res = await fetch("/api/signatures/verify", { method: "POST", body: form, credentials: "same-origin" });
      const body: unknown = await res.json().catch(() => null);
      if (res.ok) setAnswer(body as Answer);
      else {
        const detail = typeof body === "object" && body !== null && "detail" in body && typeof body.detail === "string" ? body.detail : undefined;
        setError(detail ?? "The PDF could not be checked: try again");
      }
    } catch {
      setError("The PDF could not be checked: check your connection and try again");
    } finally {
      setChecking(false);
    }
  };

  return (
    <div className="grid gap-6">
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6">
        <div className="grid gap-2">
          <label htmlFor={inputId} className="text-sm font-medium">
            Signed PDF
          </label>
          <input
            id={inputId}
            type="file"
            accept="application/pdf,.pdf"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setAnswer(null);
            }}
            className="w-full min-w-0 text-sm file:mr-3 file:h-10 file:cursor-pointer file:rounded-md file:border file:border-input file:bg-card file:px-4 file:text-sm file:font-medium"
          />
          <p className="text-xs text-muted-foreground">The file is checked and not kept.</p>
        </div>
        <FormAlert message={error} />
        <Button type="submit" variant="accent" className="w-full sm:w-fit" disabled={checking}>
          <FileSearch aria-hidden="true" />
          {checking ? "Checking…" : "Check the PDF"}
        </Button>
      </form>
      {answer && <Result answer={answer} />}
    </div>
  );
}

function Result({ answer }: { answer: Answer }) {
  return (
    <section
      aria-labelledby="verify-result-heading"
      role="status"
      className={`grid gap-3 rounded-xl border-2 bg-card p-4 sm:p-6 ${answer.valid ? "border-accent" : "border-destructive"}`}
    >
      <h2 id="verify-result-heading" className="flex items-start gap-2 text-lg font-semibold">
        {answer.valid ? (
          <CircleCheck aria-hidden="true" className="mt-1 size-5 shrink-0 text-accent" />
        ) : (
          <CircleAlert aria-hidden="true" className="mt-1 size-5 shrink-0 text-destructive" />
        )}
        {answer.valid
          ? "Sealed here and unaltered"
          : answer.sealed_here
            ? "Sealed here, but its seal does not hold"
            : "Not a document sealed here, or changed since"}
      </h2>
      <p className="text-sm">{answer.detail}</p>
      {answer.request && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Document</dt>
          <dd className="min-w-0 break-words">{answer.request.title}</dd>
          <dt className="text-muted-foreground">Kind</dt>
          <dd>{KIND_LABELS[answer.request.kind]}</dd>
          {answer.request.completed_at && (
            <>
              <dt className="text-muted-foreground">Completed</dt>
              <dd>{formatDateTime(answer.request.completed_at)}</dd>
            </>
          )}
        </dl>
      )}
      {answer.request && answer.request.signers.length > 0 && (
        <ul aria-label="Signers" className="grid gap-2 text-sm">
          {answer.request.signers.map((s, i) => (
            <li key={i} className="min-w-0 rounded-md border p-3">
              <p className="font-medium break-words">{s.name}</p>
              <p className="break-all text-muted-foreground">{s.email}</p>
              <p className="text-muted-foreground">
                {s.signed_at ? `Signed ${formatDateTime(s.signed_at)}` : "Not signed"}
                {s.identity_method && ` · identity: ${IDENTITY_LABELS[s.identity_method]}`}
              </p>
            </li>
          ))}
        </ul>
      )}
      {answer.request && (
        // The request's id is the certificate page's "Request id": for whoever compares the two, not the first thing to read.
        <details className="text-sm">
          <summary className="w-fit cursor-pointer rounded-sm text-muted-foreground hover:text-foreground">Technical details</summary>
          <p className="mt-2 text-muted-foreground">
            Request id, as on the PDF&apos;s signature certificate page: <span className="font-mono text-xs break-all">{answer.request.id}</span>
          </p>
        </details>
      )}
    </section>
  );
}
