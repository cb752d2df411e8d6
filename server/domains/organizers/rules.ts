// The rules of an organizer's answers, on the template the organizer was sent with: which questions
// are visible (a condition on a hidden question is false: hiding a question hides what depends on
// it), what value each type takes, and which required visible questions are still empty. Pure
// functions: the service reads and writes the rows.
import { z } from "zod";
import { ANSWER_NOT_SAVED, type GroupQuestion, KEEP_ENTRY, type MemberQuestion, type Question, type Template, type VisibleIf } from "./schemas.ts";

/** Answers by question id, as values (sensitive ones opened). */
export type AnswerValues = ReadonlyMap<string, unknown>;

/** A group's entry: its members' answers by id. */
type Entry = Record<string, unknown>;

export function topQuestions(template: Template): Question[] {
  return template.sections.flatMap((section) => section.questions);
}

export function findQuestion(template: Template, id: string): Question | undefined {
  return topQuestions(template).find((q) => q.id === id);
}

function matches(condition: VisibleIf, value: unknown): boolean {
  if (condition.includes !== undefined) return Array.isArray(value) && value.includes(condition.includes);
  return value !== undefined && value !== null && value === condition.equals;
}

/** The ids of the top-level questions visible with these answers, in template order. */
export function visibleIds(template: Template, answers: AnswerValues): Set<string> {
  const visible = new Set<string>();
  // Conditions name earlier questions only (the schema checks it), so one pass in order decides each.
  for (const q of topQuestions(template)) {
    if (!q.visible_if || (visible.has(q.visible_if.question) && matches(q.visible_if, answers.get(q.visible_if.question)))) visible.add(q.id);
  }
  return visible;
}

/** The members of a group visible in one entry: a condition names a member of the same entry, or an earlier top-level question. */
export function visibleMembers(group: GroupQuestion, entry: Entry, answers: AnswerValues, visible: ReadonlySet<string>): MemberQuestion[] {
  const shown = new Set<string>();
  const memberIds = new Set(group.questions.map((m) => m.id));
  for (const m of group.questions) {
    const condition = m.visible_if;
    if (!condition) shown.add(m.id);
    else if (memberIds.has(condition.question)) {
      if (shown.has(condition.question) && matches(condition, entry[condition.question])) shown.add(m.id);
    } else if (visible.has(condition.question) && matches(condition, answers.get(condition.question))) shown.add(m.id);
  }
  return group.questions.filter((m) => shown.has(m.id));
}

/** A group's entries with the answers of members hidden in each entry left out. */
export function pruneGroup(group: GroupQuestion, entries: Entry[], answers: AnswerValues, visible: ReadonlySet<string>): Entry[] {
  return entries.map((entry) => {
    const kept: Entry = {};
    for (const m of visibleMembers(group, entry, answers, visible)) if (entry[m.id] !== undefined) kept[m.id] = entry[m.id];
    return kept;
  });
}

export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "") || (Array.isArray(value) && value.length === 0);
}

/**
 * The required visible questions still empty: a top-level question by its id, a group's member as
 * `group[entry].member`. A file question counts its live documents (`files`).
 */
export function missingRequired(template: Template, answers: AnswerValues, files: ReadonlyMap<string, number>): string[] {
  const visible = visibleIds(template, answers);
  const missing: string[] = [];
  for (const q of topQuestions(template)) {
    if (!visible.has(q.id)) continue;
    if (q.type === "file") {
      if (q.required && (files.get(q.id) ?? 0) === 0) missing.push(q.id);
      continue;
    }
    const value = answers.get(q.id);
    if (q.required && isEmpty(value)) missing.push(q.id);
    if (q.type === "group" && Array.isArray(value)) {
      (value as Entry[]).forEach((entry, index) => {
        for (const m of visibleMembers(q, entry, answers, visible)) if (m.required && isEmpty(entry[m.id])) missing.push(`${q.id}[${index}].${m.id}`);
      });
    }
  }
  return missing;
}

const MAX_TEXT = 2000;
const MAX_LONG_TEXT = 20_000;
const MAX_AMOUNT = 1e13;

/**
 * A value as stored, or null to clear the answer; else why not, and where below the question
 * (`[1].wages`, a group entry's member) when it is not the question itself.
 */
export type Checked = { ok: true; value: unknown } | { ok: false; message: string; at?: string };
const refuse = (message: string, at?: string): Checked => ({ ok: false, message, ...(at !== undefined && { at }) });

/** An entry of a group answer that keeps the saved entry at this place as it is: `{ "$keep": 0 }` (a sensitive group's, which the client never reads). */
export type KeptEntry = { [KEEP_ENTRY]: number };
export const isKept = (entry: unknown): entry is KeptEntry =>
  typeof entry === "object" && entry !== null && KEEP_ENTRY in entry && Object.keys(entry).length === 1;

/** Checks (and normalizes: trims text) one value for a question that is not a file question. */
export function checkValue(q: Question | MemberQuestion, value: unknown): Checked {
  if (value === null) return { ok: true, value: null };
  switch (q.type) {
    case "text":
    case "long_text": {
      const max = q.type === "text" ? MAX_TEXT : MAX_LONG_TEXT;
      if (typeof value !== "string") return refuse("must be text");
      // eslint-disable-next-line no-control-regex -- NUL cannot be stored in jsonb text
      const text = value.replace(/\u0000/g, "").trim();
      if (text.length > max) return refuse(`must be at most ${max} characters`);
      return { ok: true, value: text === "" ? null : text };
    }
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value) || Math.abs(value) >= MAX_AMOUNT) return refuse("must be a number, like 2 or 2.5");
      return { ok: true, value };
    case "money":
      if (typeof value !== "number" || !Number.isFinite(value) || Math.abs(value) >= MAX_AMOUNT)
        return refuse("must be an amount in dollars and cents, like 1200 or 1200.50");
      if (Math.abs(Math.round(value * 100) - value * 100) > 1e-6) return refuse("must be an amount with at most two digits of cents, like 1200.50");
      return { ok: true, value };
    case "date":
      if (!z.iso.date().safeParse(value).success) return refuse("must be a date (YYYY-MM-DD)");
      return { ok: true, value };
    case "yes_no":
      if (typeof value !== "boolean") return refuse("must be true or false");
      return { ok: true, value };
    case "choice":
      if (typeof value !== "string" || !q.options.includes(value)) return refuse("must be one of its options");
      return { ok: true, value };
    case "multi_choice": {
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string" && q.options.includes(v)))
        return refuse("must be a list of its options");
      const chosen = [...new Set(value as string[])];
      return { ok: true, value: chosen.length === 0 ? null : chosen };
    }
    case "file":
      return refuse("is a file question: upload its files with organizer_id and question_id");
    case "group":
      return checkGroup(q, value);
  }
}

/** A group's entries, each checked member by member; an entry may keep a saved one (`{ "$keep": n }`), resolved by the service. */
function checkGroup(q: GroupQuestion, value: unknown): Checked {
  if (!Array.isArray(value)) return refuse("must be a list of entries");
  if (value.length > q.max_entries) return refuse(`takes at most ${q.max_entries} entries`);
  const entries: Array<Entry | KeptEntry> = [];
  for (const [index, raw] of value.entries()) {
    if (isKept(raw)) {
      const kept = raw[KEEP_ENTRY];
      if (!Number.isInteger(kept) || kept < 0 || kept >= q.max_entries) return refuse("keeps a saved entry by its place: 0, 1, ...", `[${index}]`);
      entries.push({ [KEEP_ENTRY]: kept });
      continue;
    }
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return refuse("must be an object of answers", `[${index}]`);
    const entry: Entry = {};
    for (const [id, memberValue] of Object.entries(raw as Record<string, unknown>)) {
      const member = q.questions.find((m) => m.id === id);
      if (!member) return refuse("is not a question of this group", `[${index}].${id.slice(0, 64)}`);
      const checked = checkValue(member, memberValue);
      if (!checked.ok) return refuse(checked.message, `[${index}].${member.id}`);
      if (checked.value !== null) entry[member.id] = checked.value;
    }
    entries.push(entry);
  }
  return { ok: true, value: entries.length === 0 ? null : entries };
}

/**
 * A group's entries with each kept entry (`{ "$keep": n }`) replaced by the saved entry at that
 * place, or the index of the first that points past the saved ones.
 */
export function resolveKept(entries: ReadonlyArray<Entry | KeptEntry>, saved: unknown): { entries: Entry[] } | { missing: number } {
  const before = Array.isArray(saved) ? (saved as Entry[]) : [];
  const resolved: Entry[] = [];
  for (const [index, entry] of entries.entries()) {
    if (!isKept(entry)) resolved.push(entry);
    else if (before[entry[KEEP_ENTRY]] === undefined) return { missing: index };
    else resolved.push(before[entry[KEEP_ENTRY]]!);
  }
  return { entries: resolved };
}

/** `Answer not saved: w2_jobs[0].wages (“Wages”): must be an amount ...`: the path as the required list names it, the label the client reads. */
export function answerRefusal(question: Question, path: string, why: string): string {
  const member = /\.([a-z0-9_-]+)$/.exec(path)?.[1];
  const label = (question.type === "group" && member ? question.questions.find((m) => m.id === member)?.label : undefined) ?? question.label;
  return `${ANSWER_NOT_SAVED}: ${path} (“${label}”): ${why}`;
}

/**
 * The refusal of an answer this save gives to a question that, with the answers as they stand after
 * it, is not asked (a stale page, another person's change, a script): it would be dropped, and the
 * person told nothing. A group entry sent here is checked member by member; kept entries are not.
 * Null when every answer given is asked.
 */
export function unaskedAnswer(
  template: Template,
  changes: ReadonlyMap<string, unknown>,
  sentEntries: ReadonlyMap<string, ReadonlyArray<Entry | KeptEntry>>,
  values: AnswerValues,
  visible: ReadonlySet<string>,
): string | null {
  const labelOf = (id: string, group?: Question) =>
    (group?.type === "group" ? group.questions.find((m) => m.id === id)?.label : undefined) ?? findQuestion(template, id)?.label ?? id;
  for (const [id, value] of changes) {
    const question = findQuestion(template, id)!;
    if (value === null) continue;
    if (!visible.has(id)) {
      const on = question.visible_if ? labelOf(question.visible_if.question) : "an earlier answer";
      return answerRefusal(question, id, `not asked with these answers: it depends on “${on}”`);
    }
    if (question.type !== "group") continue;
    const resolved = value as Array<Record<string, unknown>>;
    for (const [index, entry] of (sentEntries.get(id) ?? []).entries()) {
      if (isKept(entry)) continue;
      const shown = new Set(visibleMembers(question, resolved[index]!, values, visible).map((m) => m.id));
      const hidden = Object.keys(entry).find((member) => !shown.has(member));
      if (hidden === undefined) continue;
      const condition = question.questions.find((m) => m.id === hidden)?.visible_if?.question;
      const on = condition ? labelOf(condition, question) : "an earlier answer";
      return answerRefusal(question, `${id}[${index}].${hidden}`, `not asked with these answers: it depends on “${on}”`);
    }
  }
  return null;
}

/** A sensitive answer as the client reads it, with nothing of it shown (before its last four characters, if any). */
export const MASKED = "••••";

/** What the client reads of a sensitive answer: its last four characters ("•••• 6789"), or for a group how many entries. */
export function maskValue(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} hidden`;
  const text = String(value);
  return text.length <= 4 ? MASKED : `${MASKED} ${text.slice(-4)}`;
}
