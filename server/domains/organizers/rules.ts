// The rules of an organizer's answers, on the template the organizer was sent with: which questions
// are visible (a condition on a hidden question is false: hiding a question hides what depends on
// it), what value each type takes, and which required visible questions are still empty. Pure
// functions: the service reads and writes the rows.
import { z } from "zod";
import type { GroupQuestion, MemberQuestion, Question, Template, VisibleIf } from "./schemas.ts";

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
function visibleMembers(group: GroupQuestion, entry: Entry, answers: AnswerValues, visible: Set<string>): MemberQuestion[] {
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
export function pruneGroup(group: GroupQuestion, entries: Entry[], answers: AnswerValues, visible: Set<string>): Entry[] {
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

/** A value as stored, or null to clear the answer; a message saying what is wrong. */
type Checked = { ok: true; value: unknown } | { ok: false; message: string };
const refuse = (message: string): Checked => ({ ok: false, message });

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
      if (typeof value !== "number" || !Number.isFinite(value) || Math.abs(value) >= MAX_AMOUNT) return refuse("must be a number");
      return { ok: true, value };
    case "money":
      if (typeof value !== "number" || !Number.isFinite(value) || Math.abs(value) >= MAX_AMOUNT) return refuse("must be an amount");
      if (Math.abs(Math.round(value * 100) - value * 100) > 1e-6) return refuse("must be an amount in cents at most");
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

function checkGroup(q: GroupQuestion, value: unknown): Checked {
  if (!Array.isArray(value)) return refuse("must be a list of entries");
  if (value.length > q.max_entries) return refuse(`takes at most ${q.max_entries} entries`);
  const entries: Entry[] = [];
  for (const [index, raw] of value.entries()) {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return refuse(`entry ${index} must be an object of answers`);
    const entry: Entry = {};
    for (const [id, memberValue] of Object.entries(raw as Record<string, unknown>)) {
      const member = q.questions.find((m) => m.id === id);
      if (!member) return refuse(`entry ${index} names "${id.slice(0, 64)}", which is not a question of this group`);
      const checked = checkValue(member, memberValue);
      if (!checked.ok) return refuse(`entry ${index}: ${member.id} ${checked.message}`);
      if (checked.value !== null) entry[member.id] = checked.value;
    }
    entries.push(entry);
  }
  return { ok: true, value: entries.length === 0 ? null : entries };
}

/** What the client reads of a sensitive answer: its last four characters ("•••• 6789"), or for a group how many entries. */
export function maskValue(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} hidden`;
  const text = String(value);
  return text.length <= 4 ? "••••" : `•••• ${text.slice(-4)}`;
}
