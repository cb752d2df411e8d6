import { type ReactNode, useState } from "react";
import { Download, FileText, History, Lock, RotateCcw } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatCalendarDate, formatDate } from "@/lib/format.ts";
import { visibleIds, visibleMembers } from "@/lib/organizer-rules.ts";
import { trpc } from "@/lib/trpc.ts";
import type { AdminOrganizer, MemberQuestion, Question } from "@server/domains/organizers/schemas.ts";
import { OrganizerStatusBadge } from "./status-badge.tsx";

type Answer = AdminOrganizer["answers"][number];

const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** One answer as the firm reads it. */
function show(question: Question | MemberQuestion, value: unknown): string {
  if (value === undefined || value === null || value === "") return "—";
  switch (question.type) {
    case "yes_no":
      return value === true ? "Yes" : "No";
    case "money":
      return typeof value === "number" ? money.format(value) : String(value);
    case "date":
      return typeof value === "string" ? formatCalendarDate(value) : String(value);
    case "multi_choice":
      return Array.isArray(value) ? value.join(", ") : String(value);
    default:
      return String(value);
  }
}

/** The firm's view of one organizer: each visible question beside its answer, a Reviewed mark per answer, Reopen, the PDF. */
export function OrganizerReview({ id }: { id: string }) {
  const organizer = trpc.admin.organizers.get.useQuery({ id }, { retry: false });
  if (organizer.data) return <Review organizer={organizer.data} />;
  if (organizer.isError)
    return <LoadError message="Failed to load the organizer" onRetry={() => void organizer.refetch()} isRetrying={organizer.isFetching} />;
  return <Spinner label="Loading the organizer…" />;
}

function Review({ organizer }: { organizer: AdminOrganizer }) {
  const utils = trpc.useUtils();
  /** Marks as clicked, shown at once (a controlled checkbox would spring back until the save answers). */
  const [marks, setMarks] = useState<Record<string, boolean>>({});
  const review = trpc.admin.organizers.reviewAnswer.useMutation({
    onSuccess: (data, input) => {
      utils.admin.organizers.get.setData({ id: organizer.id }, data);
      setMarks(({ [input.question_id]: _saved, ...rest }) => rest);
    },
    onError: (err, input) => {
      setMarks(({ [input.question_id]: _dropped, ...rest }) => rest);
      toast.error(errorDetail(err) ?? "Saving the mark failed");
    },
  });
  const answers = new Map(organizer.answers.map((a) => [a.question_id, a]));
  const values = Object.fromEntries(organizer.answers.map((a) => [a.question_id, a.value]));
  const visible = visibleIds(organizer.template, values);
  const headingId = `organizer-${organizer.id}-heading`;

  return (
    <section aria-labelledby={headingId} className="grid gap-4">
      <div className="grid gap-3 rounded-xl border bg-card p-4 sm:flex sm:items-start sm:justify-between sm:p-6">
        <div className="grid min-w-0 gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id={headingId} className="text-xl font-semibold break-words">
              {organizer.title}
            </h2>
            <OrganizerStatusBadge status={organizer.status} />
          </div>
          <p className="text-sm text-muted-foreground">
            {organizer.template_name ?? "Template removed"}
            {organizer.sent_at && ` · Sent ${formatDate(organizer.sent_at)}`}
            {organizer.submitted_at && ` · Submitted ${formatDate(organizer.submitted_at)}`}
          </p>
        </div>
        <Button asChild variant="outline" size="sm" className="w-fit">
          <a href={`/api/admin/organizers/${organizer.id}/pdf`} download>
            <Download aria-hidden="true" />
            Download PDF
          </a>
        </Button>
      </div>

      {organizer.template.sections.map((section, index) => {
        const shown = section.questions.filter((q) => visible.has(q.id));
        if (shown.length === 0) return null;
        return (
          <div key={index} className="grid gap-0 overflow-hidden rounded-xl border bg-card">
            <h3 className="border-b bg-muted/40 px-4 py-3 font-medium">{section.title}</h3>
            <dl className="divide-y">
              {shown.map((question) => (
                <AnswerRow
                  key={question.id}
                  question={question}
                  answer={answers.get(question.id)}
                  documents={organizer.documents[question.id] ?? []}
                  render={() =>
                    question.type === "group" ? (
                      <GroupAnswer question={question} value={answers.get(question.id)?.value} values={values} visible={visible} />
                    ) : question.type === "file" ? (
                      <FileAnswer documents={organizer.documents[question.id] ?? []} />
                    ) : (
                      <span className="break-words whitespace-pre-line">{show(question, answers.get(question.id)?.value)}</span>
                    )
                  }
                  mark={marks[question.id] ?? null}
                  onReviewed={(reviewed) => {
                    setMarks((current) => ({ ...current, [question.id]: reviewed }));
                    review.mutate({ id: organizer.id, question_id: question.id, reviewed });
                  }}
                />
              ))}
            </dl>
          </div>
        );
      })}

      {organizer.status === "submitted" && <ReopenForm organizerId={organizer.id} />}
      {organizer.status === "reopened" && organizer.reopen_comment && (
        <p className="rounded-md bg-muted px-3 py-2 text-sm whitespace-pre-line">
          <span className="font-medium">Reopened: </span>
          {organizer.reopen_comment}
        </p>
      )}
    </section>
  );
}

type AnswerRowProps = {
  question: Question;
  answer: Answer | undefined;
  documents: AdminOrganizer["documents"][string];
  render: () => ReactNode;
  /** The mark as last clicked here, or null. */
  mark: boolean | null;
  onReviewed: (reviewed: boolean) => void;
};

function AnswerRow({ question, answer, documents, render, mark, onReviewed }: AnswerRowProps) {
  const answered = question.type === "file" ? documents.length > 0 : answer !== undefined && answer.value !== null;
  const reviewed = mark ?? answer?.reviewed === true;
  return (
    <div className="grid gap-2 px-4 py-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto] sm:items-start sm:gap-4">
      <dt className="text-sm text-muted-foreground">{question.label}</dt>
      <dd className="grid min-w-0 gap-1 text-sm">
        {render()}
        <span className="flex flex-wrap gap-1">
          {answer?.sensitive && (
            <Badge variant="muted">
              <Lock aria-hidden="true" />
              Sensitive
            </Badge>
          )}
          {answer?.from_last_year && (
            <Badge variant="muted">
              <History aria-hidden="true" />
              Last year's, not confirmed
            </Badge>
          )}
        </span>
      </dd>
      <dd>
        <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm sm:min-h-0">
          <input
            type="checkbox"
            className="size-4 accent-accent"
            checked={reviewed}
            disabled={!answered}
            onChange={(e) => onReviewed(e.target.checked)}
            aria-label={`Reviewed: ${question.label}`}
          />
          Reviewed
        </label>
      </dd>
    </div>
  );
}

function GroupAnswer({
  question,
  value,
  values,
  visible,
}: {
  question: Extract<Question, { type: "group" }>;
  value: unknown;
  values: Record<string, unknown>;
  visible: Set<string>;
}) {
  if (!Array.isArray(value) || value.length === 0) return <span>—</span>;
  return (
    <ol className="grid gap-2">
      {(value as Record<string, unknown>[]).map((entry, index) => (
        <li key={index} className="rounded-md border p-2">
          <span className="font-medium">Entry {index + 1}</span>
          <dl className="grid gap-0.5">
            {visibleMembers(question, entry, values, visible).map((m) => (
              <div key={m.id} className="flex flex-wrap gap-x-2">
                <dt className="text-muted-foreground">{m.label}:</dt>
                <dd className="break-words">{show(m, entry[m.id])}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ol>
  );
}

function FileAnswer({ documents }: { documents: AdminOrganizer["documents"][string] }) {
  if (documents.length === 0) return <span>No files</span>;
  return (
    <ul className="grid gap-1">
      {documents.map((d) => (
        <li key={d.id} className="flex min-w-0 items-center gap-2">
          <FileText aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
          <span className="truncate">{d.original_filename}</span>
        </li>
      ))}
    </ul>
  );
}

function ReopenForm({ organizerId }: { organizerId: string }) {
  const utils = trpc.useUtils();
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string | undefined>();
  const reopen = trpc.admin.organizers.reopen.useMutation();
  const onReopen = async () => {
    setError(undefined);
    try {
      const data = await reopen.mutateAsync({ id: organizerId, comment });
      utils.admin.organizers.get.setData({ id: organizerId }, data);
      void utils.admin.organizers.list.invalidate();
      setComment("");
      toast.success("Reopened: the client is emailed");
    } catch (err) {
      setError(errorDetail(err) ?? "Reopening failed");
    }
  };
  return (
    <div className="grid gap-3 rounded-xl border bg-card p-4 sm:p-6">
      <FormField label="Reopen with a comment" hint="Say what is missing; the client reads it in the portal." error={error}>
        <Textarea rows={3} value={comment} maxLength={5000} onChange={(e) => setComment(e.target.value)} />
      </FormField>
      <Button variant="outline" className="w-fit" disabled={reopen.isPending} onClick={() => void onReopen()}>
        <RotateCcw aria-hidden="true" />
        Reopen
      </Button>
    </div>
  );
}
