import { useEffect, useRef, useState } from "react";
import { CircleCheck, FileText, History, Lock, Plus, Trash2, Upload, X } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Select } from "@/components/ui/select.tsx";
import { RequiredMark } from "@/components/ui/required-mark.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import type { AnswerOutput, ClientOrganizer, GroupQuestion, MemberQuestion, Question } from "@server/domains/organizers/schemas.ts";
import { controlId, isKept, readNumber, type Values, visibleMembers } from "@/lib/organizer-rules.ts";

const REQUIRED_MESSAGE = "This question needs an answer";

type Entry = Record<string, unknown>;

type FieldProps = {
  question: Question | MemberQuestion;
  /** The question's path: its id, or `group[entry].member`. */
  path: string;
  value: unknown;
  onChange: (value: unknown) => void;
  error?: string;
  disabled: boolean;
  /** What was typed but is not a value of the question ("about 1200" for an amount), or null once it is: never saved, never silent. */
  onProblem?: (path: string, problem: string | null) => void;
};

/** One plain question (not a file or a group) as its type asks: text, a number pad, a date, yes/no, options. */
export function PlainField({ question, path, value, onChange, error, disabled, onProblem }: FieldProps) {
  const id = controlId(path);
  const common = { label: question.label, hint: question.help, error, required: question.required, id };
  switch (question.type) {
    case "text":
      return (
        <FormField {...common}>
          <Input value={typeof value === "string" ? value : ""} disabled={disabled} onChange={(e) => onChange(e.target.value)} />
        </FormField>
      );
    case "long_text":
      return (
        <FormField {...common}>
          <Textarea rows={3} value={typeof value === "string" ? value : ""} disabled={disabled} onChange={(e) => onChange(e.target.value)} />
        </FormField>
      );
    case "number":
    case "money":
      return (
        <FormField {...common}>
          <NumberInput
            money={question.type === "money"}
            value={value}
            disabled={disabled}
            onChange={onChange}
            onProblem={(problem) => onProblem?.(path, problem)}
          />
        </FormField>
      );
    case "date":
      return (
        <FormField {...common}>
          <Input
            type="date"
            className="w-full sm:w-52"
            value={typeof value === "string" ? value : ""}
            disabled={disabled}
            onChange={(e) => onChange(e.target.value || null)}
          />
        </FormField>
      );
    case "choice":
      return (
        <FormField {...common}>
          <Select value={typeof value === "string" ? value : ""} disabled={disabled} onChange={(e) => onChange(e.target.value || null)}>
            <option value="">Choose…</option>
            {question.options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </Select>
        </FormField>
      );
    case "yes_no":
    case "multi_choice":
      return <ChoiceGroup question={question} path={path} value={value} onChange={onChange} error={error} disabled={disabled} />;
  }
}

/** Yes/No as two radios; multi-choice as checkboxes: a fieldset whose legend is the question. */
function ChoiceGroup({ question, path, value, onChange, error, disabled }: FieldProps) {
  const id = controlId(path);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const multi = question.type === "multi_choice";
  const options: { label: string; value: unknown }[] =
    question.type === "multi_choice"
      ? question.options.map((o) => ({ label: o, value: o }))
      : [
          { label: "Yes", value: true },
          { label: "No", value: false },
        ];
  const chosen = Array.isArray(value) ? (value as unknown[]) : [];
  return (
    <fieldset
      className="grid gap-2"
      aria-describedby={[question.help ? hintId : "", error ? errorId : ""].join(" ").trim() || undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="mb-2 text-sm leading-none font-medium">
        {question.label}
        {question.required && <RequiredMark />}
      </legend>
      <div className={multi ? "grid gap-1" : "flex flex-wrap gap-2"}>
        {options.map((option, index) => {
          const checked = multi ? chosen.includes(option.value) : value === option.value;
          return (
            <label
              key={option.label}
              className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border bg-card px-3 text-sm has-checked:border-accent has-checked:bg-accent-soft has-focus-visible:ring-2 has-focus-visible:ring-ring sm:min-h-9"
            >
              <input
                id={index === 0 ? id : undefined}
                type={multi ? "checkbox" : "radio"}
                name={id}
                className="size-4 accent-accent"
                checked={checked}
                disabled={disabled}
                onChange={() => {
                  if (!multi) onChange(option.value);
                  else {
                    const next = checked ? chosen.filter((v) => v !== option.value) : [...chosen, option.value];
                    onChange(next.length === 0 ? null : next);
                  }
                }}
              />
              {option.label}
            </label>
          );
        })}
      </div>
      {question.help && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {question.help}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The text a number input shows for a saved value. */
const numberText = (value: unknown, money: boolean) =>
  typeof value === "number" ? (money && !Number.isInteger(value) ? value.toFixed(2) : String(value)) : "";

/**
 * A number as typed (so "12." survives), saved as a number once it reads as one; money with a $ and
 * the decimal pad. Text that is not a number ("about 1200") is refused where it is typed: the field
 * says why (through the question's error) and nothing is saved, and the form will not submit it.
 */
function NumberInput({
  money,
  value,
  onChange,
  onProblem,
  disabled,
  ...props
}: {
  money: boolean;
  value: unknown;
  onChange: (v: unknown) => void;
  onProblem: (problem: string | null) => void;
  disabled: boolean;
}) {
  const [text, setText] = useState(() => numberText(value, money));
  // A question hidden (or an entry removed) with a refused text in it: nothing of it stays to refuse.
  const problemRef = useRef(onProblem);
  useEffect(() => {
    problemRef.current = onProblem;
  });
  useEffect(() => () => problemRef.current(null), []);
  // The value this input last gave: another one arriving (last year's, an entry removed above) replaces the text.
  const [given, setGiven] = useState(value);
  if (value !== given) {
    setGiven(value);
    setText(numberText(value, money));
  }
  const input = (
    <Input
      {...props}
      inputMode={money ? "decimal" : "numeric"}
      className={money ? "pl-7 tabular-nums" : "tabular-nums"}
      value={text}
      disabled={disabled}
      onChange={(e) => {
        const typed = e.target.value;
        setText(typed);
        // A sign or a point alone is a number on its way: neither saved nor refused yet.
        if (/^\s*\$?\s*-?\.?\s*$/.test(typed) && typed.trim() !== "") return;
        const read = readNumber(typed, money);
        onProblem(read.ok ? null : read.reason);
        if (!read.ok) return;
        setGiven(read.value);
        onChange(read.value);
      }}
    />
  );
  if (!money) return <div className="w-full sm:w-52">{input}</div>;
  return (
    <div className="relative w-full sm:w-52">
      <span aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-muted-foreground">
        $
      </span>
      {input}
    </div>
  );
}

type GroupProps = {
  group: GroupQuestion;
  /** The entries; a sensitive group's saved ones are kept entries (`{ "$keep": n }`), never read back. */
  entries: Entry[];
  values: Values;
  visible: Set<string>;
  onChange: (entries: Entry[]) => void;
  errors: ReadonlyMap<string, string>;
  disabled: boolean;
  onProblem?: (path: string, problem: string | null) => void;
};

/** "a" or "an" before a noun, by its first letter: "Add a dependent", "Add an employer". */
const article = (noun: string) => (/^[aeiou]/i.test(noun) ? "an" : "a");

/**
 * A repeatable set of questions ("one per employer"): each entry a bordered block, Add and Remove.
 * A sensitive group's saved entries show as hidden blocks, kept as they are when one is added
 * (issue 48: adding no longer replaces what this person cannot read), or removed together.
 */
export function GroupField({ group, entries, values, visible, onChange, errors, disabled, onProblem }: GroupProps) {
  const error = errors.get(group.id);
  const noun = group.label.replace(/^one entry per /i, "").replace(/^one per /i, "") || "entry";
  const kept = entries.filter(isKept).length;
  return (
    <fieldset className="grid gap-3" aria-describedby={error ? `${controlId(group.id)}-error` : undefined}>
      <legend className="mb-2 text-sm font-medium">
        {group.label}
        {group.required && <RequiredMark />}
      </legend>
      {group.help && <p className="text-xs text-muted-foreground">{group.help}</p>}
      {entries.map((entry, index) =>
        isKept(entry) ? (
          <div key={index} role="group" aria-label={`${capitalize(noun)} ${index + 1}`} className="rounded-lg border bg-muted/30 p-3 sm:p-4">
            <p className="flex items-start gap-2 text-sm">
              <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
              <span>
                <span className="font-semibold">
                  {capitalize(noun)} {index + 1}
                </span>
                <span className="text-muted-foreground">: saved and hidden for your privacy</span>
              </span>
            </p>
          </div>
        ) : (
          <div
            key={index}
            role="group"
            aria-label={`${capitalize(noun)} ${index + 1}`}
            className="grid gap-4 rounded-lg border bg-muted/30 p-3 sm:p-4"
          >
            <div className="flex items-center justify-between gap-2">
              <p className="text-sm font-semibold">
                {capitalize(noun)} {index + 1}
              </p>
              <Button
                variant="ghost-destructive"
                size="sm"
                disabled={disabled}
                aria-label={`Remove ${noun} ${index + 1}`}
                onClick={() => onChange(entries.filter((_, i) => i !== index))}
              >
                <Trash2 aria-hidden="true" />
                Remove
              </Button>
            </div>
            {visibleMembers(group, entry, values, visible).map((member) => {
              const path = `${group.id}[${index}].${member.id}`;
              return (
                <PlainField
                  key={member.id}
                  question={member}
                  path={path}
                  value={entry[member.id]}
                  error={errors.get(path)}
                  disabled={disabled}
                  onProblem={onProblem}
                  onChange={(value) => onChange(entries.map((e, i) => (i === index ? withValue(e, member.id, value) : e)))}
                />
              );
            })}
          </div>
        ),
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          id={entries.length === 0 ? controlId(group.id) : undefined}
          variant="outline"
          size="sm"
          className="w-fit"
          disabled={disabled || entries.length >= group.max_entries}
          onClick={() => onChange([...entries, {}])}
        >
          <Plus aria-hidden="true" />
          Add {entries.length === 0 ? article(noun) : "another"} {noun}
        </Button>
        {kept > 0 && (
          <Button
            variant="ghost-destructive"
            size="sm"
            className="w-fit"
            disabled={disabled}
            onClick={() => onChange(entries.filter((e) => !isKept(e)))}
          >
            <Trash2 aria-hidden="true" />
            Remove the {kept === 1 ? "hidden entry" : `${kept} hidden entries`}
          </Button>
        )}
      </div>
      {error && (
        <p id={`${controlId(group.id)}-error`} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function withValue(entry: Entry, id: string, value: unknown): Entry {
  const next = { ...entry };
  if (value === null || value === "") delete next[id];
  else next[id] = value;
  return next;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

type FileDocument = ClientOrganizer["documents"][string][number];

type FileProps = {
  question: Question;
  documents: FileDocument[];
  onUpload: (files: File[]) => void;
  uploading: boolean;
  /** Takes one of its documents off the answer (to the client's trash); none: the files stay. */
  onRemove?: (document: FileDocument) => void;
  /** The document being removed. */
  removing?: string | null;
  error?: string;
  disabled: boolean;
};

/** A file question: its documents so far (each with Remove while it can change), and Upload (several at once). */
export function FileField({ question, documents, onUpload, uploading, onRemove, removing, error, disabled }: FileProps) {
  const picker = useRef<HTMLInputElement>(null);
  const id = controlId(question.id);
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium">
        {question.label}
        {question.required && <RequiredMark />}
      </p>
      {question.help && <p className="text-xs text-muted-foreground">{question.help}</p>}
      {documents.length > 0 ? (
        <ul aria-label={`Files for ${question.label}`} className="grid gap-1">
          {documents.map((document) => (
            <li key={document.id} className="flex min-w-0 items-center gap-2 text-sm">
              <FileText aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
              <span className="min-w-0 truncate">{document.original_filename}</span>
              {onRemove && !disabled && (
                <Button
                  variant="ghost-destructive"
                  size="icon-sm"
                  className="shrink-0"
                  aria-label={`Remove ${document.original_filename}`}
                  disabled={removing === document.id}
                  onClick={() => onRemove(document)}
                >
                  <X aria-hidden="true" />
                </Button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">No files yet</p>
      )}
      <input
        ref={picker}
        type="file"
        multiple
        hidden
        aria-label={`Choose files for ${question.label}`}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = "";
          onUpload(files);
        }}
      />
      <Button
        id={id}
        variant="outline"
        size="sm"
        className="w-fit"
        disabled={disabled || uploading}
        aria-describedby={error ? `${id}-error` : undefined}
        onClick={() => picker.current?.click()}
      >
        <Upload aria-hidden="true" />
        {uploading ? "Uploading…" : "Upload files"}
      </Button>
      {error && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/** Last year's answer, until the client confirms or changes it. */
export function LastYearNote({ onConfirm, disabled }: { onConfirm: () => void; disabled: boolean }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Badge variant="muted">
        <History aria-hidden="true" />
        Last year's answer
      </Badge>
      <Button variant="link" size="sm" className="h-auto px-0 max-sm:h-auto" disabled={disabled} onClick={onConfirm}>
        Still right? Confirm
      </Button>
    </div>
  );
}

/** The firm's mark on an answer it has read: shown to the client, who cannot change it (changing the answer clears it). */
export function ReviewedNote() {
  return (
    <Badge variant="success" className="w-fit">
      <CircleCheck aria-hidden="true" />
      Reviewed by your firm
    </Badge>
  );
}

/** A sensitive answer already saved: never shown again, only its last digits. */
export function MaskedNote({ masked, group, editable }: { masked: string; group: boolean; editable: boolean }) {
  const count = group ? Number.parseInt(masked, 10) : NaN;
  return (
    <p className="flex items-start gap-2 text-sm text-muted-foreground">
      <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {group ? (
        <span>
          {count === 1 ? "One entry is" : `${Number.isNaN(count) ? "Entries are" : `${count} entries are`}`} saved and hidden for your privacy;
          entries you add are added to them.
        </span>
      ) : (
        <span>
          Saved as <span className="font-mono tabular-nums">{masked}</span>, hidden for your privacy{editable ? "; type to replace it." : "."}
        </span>
      )}
    </p>
  );
}

export { REQUIRED_MESSAGE };
export type { AnswerOutput, Entry };
