import { useCallback, useEffect, useRef, useState } from "react";
import { Check, CircleAlert, CloudOff, Loader2, RotateCcw, Send } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatCalendarDate, formatDate } from "@/lib/format.ts";
import { trpc } from "@/lib/trpc.ts";
import { uploadWithFields } from "@/lib/upload-document.ts";
import { type ClientOrganizer, KEEP_ENTRY, type Question, REQUIRED_UNANSWERED } from "@server/domains/organizers/schemas.ts";
import { controlId, missingFromMessage, refusalFromMessage, visibleIds, withoutHidden } from "@/lib/organizer-rules.ts";
import { StatusBadge } from "./status-badge.tsx";
import {
  type Entry,
  FileField,
  GroupField,
  LastYearNote,
  MaskedNote,
  PlainField,
  REQUIRED_MESSAGE,
  ReviewedNote,
} from "@/components/organizer/question-field.tsx";

/** How long typing pauses before the changed answers are saved. */
const SAVE_DELAY_MS = 700;

type SaveState = "idle" | "saving" | "saved" | "failed" | "refused";

/**
 * The answers as values (sensitive ones come back masked: not a value). A sensitive group's saved
 * entries ("2 hidden") become kept entries, so an entry added later is added to them.
 */
function initialValues(organizer: ClientOrganizer): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const groups = new Set(organizer.template.sections.flatMap((s) => s.questions.filter((q) => q.type === "group").map((q) => q.id)));
  for (const answer of organizer.answers) {
    if (answer.value !== null && answer.value !== undefined) values[answer.question_id] = answer.value;
    else if (answer.masked && groups.has(answer.question_id)) {
      const count = Number.parseInt(answer.masked, 10);
      if (count > 0) values[answer.question_id] = Array.from({ length: count }, (_, n) => ({ [KEEP_ENTRY]: n }));
    }
  }
  return values;
}

/**
 * The changed answers, saved a moment after typing pauses (one PUT of only what changed, one at a
 * time, in order), and sent with `keepalive` when the page goes away, so closing the phone loses nothing.
 */
function useAutosave(organizerId: string, onRefused: (path: string, reason: string) => void) {
  const utils = trpc.useUtils();
  const save = trpc.organizers.saveAnswers.useMutation();
  const pending = useRef<Record<string, unknown>>({});
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const chain = useRef<Promise<void>>(Promise.resolve());
  const [state, setState] = useState<SaveState>("idle");

  const send = useCallback(async () => {
    // Again while the server refuses one answer of the batch: the others are saved without it.
    for (;;) {
      const batch = pending.current;
      if (Object.keys(batch).length === 0) return;
      pending.current = {};
      setState("saving");
      try {
        const saved = await save.mutateAsync({ id: organizerId, answers: batch });
        utils.organizers.get.setData({ id: organizerId }, saved);
        void utils.organizers.list.invalidate();
        setState(Object.keys(pending.current).length > 0 ? "saving" : "saved");
        return;
      } catch (err) {
        // One answer the server refuses (it names it): said by that question, never dropped silently.
        const refused = refusalFromMessage(errorDetail(err) ?? "");
        const question = refused?.path.split("[")[0];
        if (refused && question && question in batch) {
          onRefused(refused.path, refused.reason);
          const { [question]: _refused, ...rest } = batch;
          pending.current = { ...rest, ...pending.current };
          setState("idle");
          continue;
        }
        // Kept for the next try, unless typed over since.
        pending.current = { ...batch, ...pending.current };
        setState("failed");
        toast.error("Your last changes are not saved yet", { description: errorDetail(err) });
        return;
      }
    }
  }, [organizerId, save, utils, onRefused]);

  /** Saves what is waiting now; resolves once it (and any save before it) is done. */
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    chain.current = chain.current.then(send);
    return chain.current;
  }, [send]);

  const change = useCallback(
    (id: string, value: unknown) => {
      pending.current[id] = value === undefined ? null : value;
      setState("saving");
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), SAVE_DELAY_MS);
    },
    [flush],
  );

  // Leaving (closing the tab, the phone locking the page away, going Back): what waits goes now.
  useEffect(() => {
    const leave = () => {
      if (Object.keys(pending.current).length === 0) return;
      const body = JSON.stringify({ answers: pending.current });
      pending.current = {};
      clearTimeout(timer.current);
      void fetch(`/api/organizers/${organizerId}/answers`, {
        method: "PUT",
        body,
        keepalive: true,
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
      });
    };
    const hidden = () => document.visibilityState === "hidden" && leave();
    window.addEventListener("pagehide", leave);
    document.addEventListener("visibilitychange", hidden);
    return () => {
      window.removeEventListener("pagehide", leave);
      document.removeEventListener("visibilitychange", hidden);
      leave();
    };
  }, [organizerId]);

  return { change, flush, state };
}

/** The client's organizer: sections of questions by type, shown as the answers decide, saved as they type, then Submit. */
export function OrganizerForm({ organizer }: { organizer: ClientOrganizer }) {
  const utils = trpc.useUtils();
  const [values, setValues] = useState<Record<string, unknown>>(() => initialValues(organizer));
  const [errors, setErrors] = useState<ReadonlyMap<string, string>>(new Map());
  /** Answers typed but refused where typed ("about 1200" for an amount), by path: not saved, and Submit waits for them. */
  const [problems, setProblems] = useState<ReadonlyMap<string, string>>(new Map());
  /** The first question the server said is missing: focused once the errors are on the page. */
  const focusFirst = useRef<string | null>(null);
  const [uploading, setUploading] = useState<string | null>(null);
  const onRefused = useCallback((path: string, reason: string) => setErrors((current) => new Map(current).set(path, reason)), []);
  const onProblem = useCallback(
    (path: string, problem: string | null) =>
      setProblems((current) => {
        if ((current.get(path) ?? null) === problem) return current;
        const next = new Map(current);
        if (problem === null) next.delete(path);
        else next.set(path, problem);
        return next;
      }),
    [],
  );
  const autosave = useAutosave(organizer.id, onRefused);
  /** The confirmation's heading, where focus goes once the organizer is submitted (the Submit button is gone then). */
  const submittedHeading = useRef<HTMLHeadingElement>(null);
  const submit = trpc.organizers.submit.useMutation();
  const unsubmit = trpc.organizers.unsubmit.useMutation();
  const trash = trpc.documents.delete.useMutation();
  const [removing, setRemoving] = useState<string | null>(null);

  const open = organizer.status === "sent" || organizer.status === "reopened";
  const visible = visibleIds(organizer.template, values);
  const answers = new Map(organizer.answers.map((a) => [a.question_id, a]));

  useEffect(() => {
    if (!focusFirst.current) return;
    const target = document.getElementById(controlId(focusFirst.current));
    focusFirst.current = null;
    target?.focus();
    target?.scrollIntoView({ block: "center" });
  }, [errors, problems]);

  /**
   * One answer changed: saved with whatever it hides (those answers cleared here and on the server
   * alike, so the page never shows an answer the server no longer keeps).
   */
  const change = (id: string, value: unknown) => {
    const next: Record<string, unknown> = { ...values };
    if (value === null || value === undefined) delete next[id];
    else next[id] = value;
    const shown = withoutHidden(organizer.template, next);
    setValues(shown.values);
    const touched = new Set([id, ...shown.changed.keys()]);
    const under = (path: string) => [...touched].some((t) => path === t || path.startsWith(`${t}[`));
    if (errors.size > 0) setErrors((current) => new Map([...current].filter(([path]) => !under(path))));
    // An entry removed: what was refused in the group's entries is gone with them (its text is shown again from the answers).
    const before = values[id];
    if (Array.isArray(before) && (!Array.isArray(value) || value.length < before.length))
      setProblems((current) => new Map([...current].filter(([path]) => !path.startsWith(`${id}[`))));
    autosave.change(id, value ?? null);
    for (const [hidden, kept] of shown.changed) if (hidden !== id) autosave.change(hidden, kept);
    if (shown.changed.has(id)) autosave.change(id, shown.changed.get(id));
  };

  const upload = async (question: Question, files: File[]) => {
    if (files.length === 0) return;
    setUploading(question.id);
    let failed: string | null = null;
    for (const file of files) {
      try {
        await uploadWithFields("/api/documents/upload", file, { organizer_id: organizer.id, question_id: question.id });
      } catch (err) {
        failed = err instanceof Error ? err.message : "File upload failed";
      }
    }
    setUploading(null);
    await Promise.all([utils.organizers.get.invalidate({ id: organizer.id }), utils.organizers.list.invalidate(), utils.documents.invalidate()]);
    if (failed) toast.error("File upload failed", { description: failed });
    else toast.success(files.length === 1 ? `File uploaded for “${question.label}”` : `${files.length} files uploaded for “${question.label}”`);
    setErrors((current) => new Map([...current].filter(([path]) => path !== question.id)));
  };

  /** A file taken off a file question: into the client's trash (restorable there for 30 days), off the answer. */
  const removeFile = async (document: { id: string; original_filename: string }) => {
    setRemoving(document.id);
    try {
      await trash.mutateAsync({ id: document.id });
      toast.success(`“${document.original_filename}” removed`, { description: "It is in your Trash for 30 days." });
    } catch (err) {
      toast.error(errorDetail(err) ?? "Removing the file failed");
    } finally {
      setRemoving(null);
      await Promise.all([utils.organizers.get.invalidate({ id: organizer.id }), utils.organizers.list.invalidate(), utils.documents.invalidate()]);
    }
  };

  /** Answers not saved, refused where typed or by the server, by path: Submit waits for them (issue 48). */
  const unsaved = [...problems.keys(), ...[...errors].filter(([, message]) => message.startsWith("Not saved:")).map(([path]) => path)];

  const onSubmit = async () => {
    // An answer refused is not saved: submitting would hand in the organizer without it.
    const firstProblem = unsaved[0];
    if (firstProblem !== undefined) {
      document.getElementById(controlId(firstProblem))?.focus();
      document.getElementById(controlId(firstProblem))?.scrollIntoView({ block: "center" });
      return;
    }
    await autosave.flush();
    try {
      const result = await submit.mutateAsync({ id: organizer.id });
      utils.organizers.get.setData({ id: organizer.id }, result);
      void utils.organizers.list.invalidate();
      setErrors(new Map());
      toast.success(`“${organizer.title}” submitted to your firm`);
      requestAnimationFrame(() => submittedHeading.current?.focus());
    } catch (err) {
      const message = errorDetail(err) ?? "Submitting failed";
      if (message.startsWith(REQUIRED_UNANSWERED)) {
        const missing = missingFromMessage(message);
        setErrors(new Map(missing.map((path) => [path, REQUIRED_MESSAGE])));
        focusFirst.current = missing[0] ?? null;
      } else toast.error(message);
    }
  };

  const onUnsubmit = async () => {
    try {
      const result = await unsubmit.mutateAsync({ id: organizer.id });
      utils.organizers.get.setData({ id: organizer.id }, result);
      void utils.organizers.list.invalidate();
      toast.success("Taken back: you can change your answers, then submit again");
    } catch (err) {
      toast.error(errorDetail(err) ?? "Taking it back failed");
    }
  };

  const missingCount = errors.size - (unsaved.length - problems.size);
  const errorOf = (path: string) => problems.get(path) ?? errors.get(path);

  return (
    <div className="grid gap-4 sm:gap-6">
      <div className="grid gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="min-w-0 text-xl font-semibold break-words sm:text-3xl">{organizer.title}</h1>
          <StatusBadge status={organizer.status} />
        </div>
        <p className="text-sm text-muted-foreground">
          {organizer.due_date ? `Due ${formatCalendarDate(organizer.due_date)}` : "No due date"}
          {organizer.submitted_at && organizer.status === "submitted" && ` · Submitted on ${formatDate(organizer.submitted_at)}`}
        </p>
        {open && <SaveStatus state={unsaved.length > 0 ? "refused" : autosave.state} />}
        {organizer.status === "reopened" && organizer.reopen_comment && (
          <p className="rounded-md bg-muted px-3 py-2 text-sm whitespace-pre-line break-words">
            <span className="font-medium">Your firm: </span>
            {organizer.reopen_comment}
          </p>
        )}
      </div>

      {organizer.template.sections.map((section, index) => {
        const shown = section.questions.filter((q) => visible.has(q.id));
        if (shown.length === 0) return null;
        const headingId = `section-${index}`;
        return (
          <Card key={index} role="region" aria-labelledby={headingId} className="min-w-0">
            <CardHeader>
              <CardTitle asChild>
                <h2 id={headingId}>{section.title}</h2>
              </CardTitle>
              {section.description && <CardDescription>{section.description}</CardDescription>}
            </CardHeader>
            <CardContent className="grid gap-6">
              {shown.map((question) => {
                const answer = answers.get(question.id);
                const value = values[question.id];
                const lastYear = answer?.from_last_year === true && value !== undefined && JSON.stringify(value) === JSON.stringify(answer.value);
                const masked = question.sensitive && answer?.masked && value === undefined ? answer.masked : null;
                return (
                  <div key={question.id} className="grid min-w-0 gap-2">
                    {question.type === "file" ? (
                      <FileField
                        question={question}
                        documents={organizer.documents[question.id] ?? []}
                        uploading={uploading === question.id}
                        onUpload={(files) => void upload(question, files)}
                        onRemove={(document) => void removeFile(document)}
                        removing={removing}
                        error={errorOf(question.id)}
                        disabled={!open || (uploading !== null && uploading !== question.id)}
                      />
                    ) : question.type === "group" ? (
                      <GroupField
                        group={question}
                        entries={Array.isArray(value) ? (value as Entry[]) : []}
                        values={values}
                        visible={visible}
                        errors={new Map([...errors, ...problems])}
                        disabled={!open}
                        onProblem={onProblem}
                        onChange={(entries) => change(question.id, entries.length === 0 ? null : entries)}
                      />
                    ) : (
                      <PlainField
                        question={question}
                        path={question.id}
                        value={value}
                        error={errorOf(question.id)}
                        disabled={!open}
                        onProblem={onProblem}
                        onChange={(next) => change(question.id, next === "" ? null : next)}
                      />
                    )}
                    {masked && <MaskedNote masked={masked} group={question.type === "group"} editable={open} />}
                    {lastYear && <LastYearNote disabled={!open} onConfirm={() => change(question.id, value)} />}
                    {answer?.reviewed && <ReviewedNote />}
                  </div>
                );
              })}
            </CardContent>
          </Card>
        );
      })}

      <div className="grid gap-3 rounded-xl border bg-card p-4 sm:flex sm:items-center sm:justify-between sm:p-6">
        {open ? (
          <>
            <p className={`text-sm ${missingCount + unsaved.length > 0 ? "font-medium text-destructive" : "text-muted-foreground"}`} role="status">
              {unsaved.length > 0 ? (
                <>
                  <CircleAlert aria-hidden="true" className="mr-1 inline size-4 align-text-bottom" />
                  {unsaved.length === 1
                    ? "One answer is not saved: fix it, then submit."
                    : `${unsaved.length} answers are not saved: fix them, then submit.`}
                </>
              ) : missingCount > 0 ? (
                <>
                  <CircleAlert aria-hidden="true" className="mr-1 inline size-4 align-text-bottom" />
                  {missingCount === 1 ? "One question still needs an answer." : `${missingCount} questions still need an answer.`}
                </>
              ) : (
                "Your answers are saved as you type. Submit when you are done."
              )}
            </p>
            <Button variant="accent" disabled={submit.isPending || uploading !== null} onClick={() => void onSubmit()}>
              <Send aria-hidden="true" />
              {submit.isPending ? "Submitting…" : "Submit to your firm"}
            </Button>
          </>
        ) : organizer.status === "submitted" ? (
          <>
            <div className="grid gap-1">
              <h2 ref={submittedHeading} tabIndex={-1} className="text-base font-semibold outline-none">
                Submitted to your firm
              </h2>
              <p className="text-sm text-muted-foreground">Need to change something? Take it back, change it, and submit again.</p>
            </div>
            <Button variant="outline" disabled={unsubmit.isPending} onClick={() => void onUnsubmit()}>
              <RotateCcw aria-hidden="true" />
              Take back to change answers
            </Button>
          </>
        ) : null}
      </div>
    </div>
  );
}

function SaveStatus({ state }: { state: SaveState }) {
  return (
    <p role="status" className="flex min-h-5 items-center gap-1.5 text-sm text-muted-foreground">
      {state === "saving" && (
        <>
          <Loader2 aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
          Saving…
        </>
      )}
      {state === "saved" && (
        <>
          <Check aria-hidden="true" className="size-4 text-accent" />
          Saved
        </>
      )}
      {state === "failed" && (
        <span className="flex items-center gap-1.5 text-destructive">
          <CloudOff aria-hidden="true" className="size-4" />
          Not saved yet: we will try again as you type
        </span>
      )}
      {state === "refused" && (
        <span className="flex items-center gap-1.5 text-destructive">
          <CircleAlert aria-hidden="true" className="size-4" />
          An answer below is not saved: it says why
        </span>
      )}
    </p>
  );
}
