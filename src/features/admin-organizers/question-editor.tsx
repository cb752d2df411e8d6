import { type ReactNode, useId } from "react";
import { ChevronDown, ChevronUp, Plus, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { MoveButtons, moveButtonId } from "@/components/ui/move-buttons.tsx";
import { Select } from "@/components/ui/select.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { type MemberQuestion, type Question, QUESTION_TYPES, type VisibleIf } from "@server/domains/organizers/schemas.ts";
import {
  type ConditionTarget,
  conditionText,
  defaultCondition,
  MEMBER_TYPES,
  type MemberType,
  memberWithType,
  move,
  newId,
  type QuestionType,
  TYPE_LABELS,
  typedValue,
  withType,
} from "./template-draft.ts";

/** What a row needs from the editor around it: where it is, how to move it, what it may name in a condition. */
export type RowPlace = {
  number: number;
  first: boolean;
  last: boolean;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  expanded: boolean;
  onToggle: () => void;
  /** The questions asked before this one that a condition may name. */
  candidates: readonly ConditionTarget[];
};

export const labelInputId = (id: string) => `label-${id}`;

const nameOf = (label: string, number: number) => (label.trim() ? `“${label.trim()}”` : `question ${number}`);

/** The row's summary and its buttons: move up and down (keyboard: Tab to them, Enter), edit, remove. */
function RowHeader({ question, place, kind }: { question: Question | MemberQuestion; place: RowPlace; kind: string }) {
  const name = nameOf(question.label, place.number);
  const target = question.visible_if ? place.candidates.find((c) => c.id === question.visible_if?.question) : undefined;
  return (
    <div className="grid gap-2 sm:flex sm:items-start sm:justify-between">
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="font-medium break-words">
          <span className="text-muted-foreground tabular-nums">{place.number}.</span> {question.label.trim() || "Untitled question"}
        </p>
        <div className="flex flex-wrap items-center gap-1.5 text-xs">
          <Badge variant="muted">{TYPE_LABELS[question.type]}</Badge>
          {question.required && <Badge variant="secondary">Required</Badge>}
          {question.sensitive && <Badge variant="secondary">Sensitive</Badge>}
          {question.visible_if && <span className="text-muted-foreground">{conditionText(question.visible_if, target)}</span>}
        </div>
      </div>
      <div className="flex shrink-0 items-center gap-1">
        <MoveButtons id={question.id} what={`${kind} ${name}`} first={place.first} last={place.last} onMove={place.onMove} />
        <Button
          variant="outline"
          size="sm"
          aria-expanded={place.expanded}
          aria-controls={`editor-${question.id}`}
          aria-label={`${place.expanded ? "Close" : "Edit"} ${kind} ${name}`}
          onClick={place.onToggle}
        >
          {place.expanded ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
          {place.expanded ? "Close" : "Edit"}
        </Button>
        <Button variant="ghost-destructive" size="icon-sm" aria-label={`Remove ${kind} ${name}`} onClick={place.onRemove}>
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}

/** The fields every question has: its label beside its type, then its help text. */
function CommonFields({
  question,
  onChange,
  typeField,
}: {
  question: Question | MemberQuestion;
  onChange: (changes: { label?: string; help?: string }) => void;
  /** The type's select, beside the label. */
  typeField: ReactNode;
}) {
  return (
    <>
      <div className="grid items-start gap-4 sm:grid-cols-[2fr_1fr]">
        <FormField label="Question" id={labelInputId(question.id)} required>
          <Input value={question.label} maxLength={500} onChange={(e) => onChange({ label: e.target.value })} />
        </FormField>
        {typeField}
      </div>
      <FormField label="Help text (optional)" hint="Shown under the question, in smaller type.">
        <Textarea rows={2} value={question.help ?? ""} maxLength={2000} onChange={(e) => onChange({ help: e.target.value || undefined })} />
      </FormField>
    </>
  );
}

function Check({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange: (checked: boolean) => void; hint?: string }) {
  const id = useId();
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="flex min-h-11 w-fit cursor-pointer items-center gap-2 text-sm sm:min-h-8">
        <input id={id} type="checkbox" className="size-4 accent-accent" checked={checked} onChange={(e) => onChange(e.target.checked)} />
        {label}
      </label>
      {hint && <p className="-mt-1 text-xs text-muted-foreground">{hint}</p>}
    </div>
  );
}

/** The options of a choice question, one a line. */
function OptionsField({ options, onChange }: { options: readonly string[]; onChange: (options: string[]) => void }) {
  return (
    <FormField label="Options" hint="One a line, in the order the client sees them." required>
      <Textarea
        rows={Math.min(8, Math.max(3, options.length + 1))}
        value={options.join("\n")}
        onChange={(e) => onChange(e.target.value.split("\n").map((o) => o.trimStart()))}
        onBlur={() => onChange(options.map((o) => o.trim()).filter(Boolean))}
      />
    </FormField>
  );
}

/** visible_if: shown always, or only when an earlier question equals (includes, for several choices) a value. */
function ConditionField({
  condition,
  candidates,
  onChange,
}: {
  condition: VisibleIf | undefined;
  candidates: readonly ConditionTarget[];
  onChange: (condition: VisibleIf | undefined) => void;
}) {
  const valueId = useId();
  const target = condition ? candidates.find((c) => c.id === condition.question) : undefined;
  return (
    <fieldset className="grid items-start gap-3 rounded-md border p-3 sm:grid-cols-2">
      <legend className="px-1 text-sm font-medium">Condition</legend>
      <FormField
        label="Show this question"
        hint={candidates.length === 0 ? "A condition names a question asked before this one; there is none yet." : undefined}
      >
        <Select
          value={condition?.question ?? ""}
          onChange={(e) => {
            const chosen = candidates.find((c) => c.id === e.target.value);
            onChange(chosen ? defaultCondition(chosen) : undefined);
          }}
        >
          <option value="">Always</option>
          {condition && !target && <option value={condition.question}>Only when a question no longer before this one…</option>}
          {candidates.map((c) => (
            <option key={c.id} value={c.id}>
              Only when “{c.label.trim() || "Untitled question"}”…
            </option>
          ))}
        </Select>
      </FormField>
      {condition && !target && (
        <p className="text-sm text-destructive sm:col-span-2">
          The question this condition names is no longer asked before this one: choose another, or Always.
        </p>
      )}
      {condition && target && (
        <FormField label={target.type === "multi_choice" ? "…includes" : "…is"} id={valueId}>
          {target.type === "yes_no" ? (
            <Select
              value={condition.equals === false ? "no" : "yes"}
              onChange={(e) => onChange({ question: target.id, equals: e.target.value === "yes" })}
            >
              <option value="yes">Yes</option>
              <option value="no">No</option>
            </Select>
          ) : target.type === "choice" || target.type === "multi_choice" ? (
            <Select
              value={String(condition.includes ?? condition.equals ?? "")}
              onChange={(e) =>
                onChange(
                  target.type === "multi_choice"
                    ? { question: target.id, includes: e.target.value }
                    : { question: target.id, equals: e.target.value },
                )
              }
            >
              {target.options.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </Select>
          ) : (
            <Input
              type={target.type === "date" ? "date" : "text"}
              inputMode={target.type === "number" || target.type === "money" ? "decimal" : undefined}
              value={String(condition.equals ?? "")}
              onChange={(e) => onChange({ question: target.id, equals: typedValue(target, e.target.value) })}
            />
          )}
        </FormField>
      )}
    </fieldset>
  );
}

type QuestionRowProps = {
  question: Question;
  place: RowPlace;
  onChange: (question: Question) => void;
  /** Every id in the template, so a new group question gets a fresh one. */
  taken: ReadonlySet<string>;
  expandedIds: ReadonlySet<string>;
  onToggleId: (id: string) => void;
  onMoved: (focusId: string) => void;
};

/** One question of a section: its summary, and when opened its fields. */
export function QuestionRow({ question, place, onChange, taken, expandedIds, onToggleId, onMoved }: QuestionRowProps) {
  const change = (changes: Partial<Question>) => onChange({ ...question, ...changes } as Question);
  return (
    <li aria-label={`${place.number}. ${question.label.trim() || "Untitled question"}`} className="grid gap-3 p-3 sm:p-4">
      <RowHeader question={question} place={place} kind="question" />
      {place.expanded && (
        <div id={`editor-${question.id}`} className="grid gap-4 border-t pt-4">
          <CommonFields
            question={question}
            onChange={change}
            typeField={
              <FormField label="Type">
                <Select value={question.type} onChange={(e) => onChange(withType(question, e.target.value as QuestionType, taken))}>
                  {QUESTION_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {TYPE_LABELS[t]}
                    </option>
                  ))}
                </Select>
              </FormField>
            }
          />
          {(question.type === "choice" || question.type === "multi_choice") && (
            <OptionsField options={question.options} onChange={(options) => onChange({ ...question, options })} />
          )}
          <div className="grid gap-1 sm:flex sm:gap-6">
            <Check
              label="Required"
              checked={question.required}
              onChange={(required) => change({ required })}
              hint={question.type === "group" ? "At least one entry." : undefined}
            />
            <Check
              label="Sensitive"
              checked={question.sensitive}
              onChange={(sensitive) => change({ sensitive })}
              hint="Stored encrypted; the client sees it masked once saved (bank and identity numbers)."
            />
          </div>
          <ConditionField condition={question.visible_if} candidates={place.candidates} onChange={(visible_if) => change({ visible_if })} />
          {question.type === "group" && (
            <GroupMembers
              group={question}
              candidates={place.candidates}
              taken={taken}
              onChange={onChange}
              expandedIds={expandedIds}
              onToggleId={onToggleId}
              onMoved={onMoved}
            />
          )}
        </div>
      )}
    </li>
  );
}

type GroupMembersProps = {
  group: Extract<Question, { type: "group" }>;
  candidates: readonly ConditionTarget[];
  taken: ReadonlySet<string>;
  onChange: (question: Question) => void;
  expandedIds: ReadonlySet<string>;
  onToggleId: (id: string) => void;
  onMoved: (focusId: string) => void;
};

/** A group's questions, asked once per entry: the same rows, with the types a group takes. */
function GroupMembers({ group, candidates, taken, onChange, expandedIds, onToggleId, onMoved }: GroupMembersProps) {
  const headingId = `members-${group.id}`;
  const setMembers = (questions: MemberQuestion[]) => onChange({ ...group, questions });
  return (
    <div className="grid gap-3 rounded-md border bg-muted/30 p-3">
      <h4 id={headingId} className="text-sm font-semibold">
        Questions in each entry
      </h4>
      <ol aria-labelledby={headingId} className="grid divide-y rounded-md border bg-card">
        {group.questions.map((member, index) => (
          <MemberRow
            key={member.id}
            member={member}
            place={{
              number: index + 1,
              first: index === 0,
              last: index === group.questions.length - 1,
              onMove: (by) => {
                setMembers(move(group.questions, index, by));
                onMoved(moveButtonId(member.id, by));
              },
              onRemove: () => setMembers(group.questions.filter((_, i) => i !== index)),
              expanded: expandedIds.has(member.id),
              onToggle: () => onToggleId(member.id),
              // Its own entry's earlier questions, or a question asked before the group.
              candidates: [...candidates, ...group.questions.slice(0, index)],
            }}
            onChange={(next) => setMembers(group.questions.map((m, i) => (i === index ? next : m)))}
          />
        ))}
      </ol>
      <div className="flex flex-wrap items-end gap-3">
        <Button
          variant="outline"
          size="sm"
          onClick={() => {
            const id = newId(taken);
            setMembers([...group.questions, { id, label: "", type: "text", required: false, sensitive: false }]);
            onToggleId(id);
            onMoved(labelInputId(id));
          }}
        >
          <Plus aria-hidden="true" />
          Add a question to the group
        </Button>
        <FormField label="At most this many entries" className="w-44">
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={50}
            value={group.max_entries}
            onChange={(e) => onChange({ ...group, max_entries: Math.max(1, Math.min(50, Number(e.target.value) || 1)) })}
          />
        </FormField>
      </div>
    </div>
  );
}

function MemberRow({ member, place, onChange }: { member: MemberQuestion; place: RowPlace; onChange: (member: MemberQuestion) => void }) {
  const change = (changes: Partial<MemberQuestion>) => onChange({ ...member, ...changes } as MemberQuestion);
  return (
    <li aria-label={`${place.number}. ${member.label.trim() || "Untitled question"}`} className="grid gap-3 p-3">
      <RowHeader question={member} place={place} kind="group question" />
      {place.expanded && (
        <div id={`editor-${member.id}`} className="grid gap-4 border-t pt-4">
          <CommonFields
            question={member}
            onChange={change}
            typeField={
              <FormField label="Type">
                <Select value={member.type} onChange={(e) => onChange(memberWithType(member, e.target.value as MemberType))}>
                  {MEMBER_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {TYPE_LABELS[t]}
                    </option>
                  ))}
                </Select>
              </FormField>
            }
          />
          {(member.type === "choice" || member.type === "multi_choice") && (
            <OptionsField options={member.options} onChange={(options) => onChange({ ...member, options })} />
          )}
          <Check label="Required" checked={member.required} onChange={(required) => change({ required })} />
          <ConditionField condition={member.visible_if} candidates={place.candidates} onChange={(visible_if) => change({ visible_if })} />
        </div>
      )}
    </li>
  );
}
