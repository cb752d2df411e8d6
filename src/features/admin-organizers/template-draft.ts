// The template editor's working copy and the changes it makes: pure functions over the template
// document (server/domains/organizers/schemas.ts), so a move or a type change keeps it something
// templateSchema can take. The server's schema stays the judge: what it refuses is shown as it says.
import { QUESTION_TYPES, type MemberQuestion, type Question, type Template, type VisibleIf } from "@server/domains/organizers/schemas.ts";

export type QuestionType = (typeof QUESTION_TYPES)[number];
export type MemberType = MemberQuestion["type"];
type Section = Template["sections"][number];

/** A section as edited: `key` keeps React's rows (and the focus) with it as it moves; it is not saved. */
export type DraftSection = Section & { key: string };
export type Draft = { name: string; sections: DraftSection[] };

export const TYPE_LABELS: Record<QuestionType, string> = {
  text: "Short text",
  long_text: "Long text",
  number: "Number",
  money: "Money",
  date: "Date",
  yes_no: "Yes / No",
  choice: "One choice",
  multi_choice: "Several choices",
  file: "Files",
  group: "Repeating group",
};
export const MEMBER_TYPES = QUESTION_TYPES.filter((t): t is MemberType => t !== "file" && t !== "group");

let counter = 0;
/** A fresh id, unique in this template: `q_` and a few random letters (ids never show to the client). */
export function newId(taken: ReadonlySet<string>): string {
  for (;;) {
    const id = `q_${Math.random().toString(36).slice(2, 8)}`;
    if (!taken.has(id)) return id;
  }
}
export const newKey = () => `s${++counter}`;

export function allIds(draft: Draft): Set<string> {
  const ids = new Set<string>();
  for (const s of draft.sections)
    for (const q of s.questions) {
      ids.add(q.id);
      if (q.type === "group") for (const m of q.questions) ids.add(m.id);
    }
  return ids;
}

export function toDraft(name: string, template: Template): Draft {
  return { name, sections: template.sections.map((s) => ({ ...s, key: newKey() })) };
}

export function toTemplate(draft: Draft): Template {
  return { sections: draft.sections.map(({ key: _key, ...section }) => section) };
}

export function newQuestion(taken: ReadonlySet<string>): Question {
  return { id: newId(taken), label: "", type: "text", required: false, sensitive: false };
}

export function newSection(taken: ReadonlySet<string>): DraftSection {
  return { key: newKey(), title: "", questions: [newQuestion(taken)] };
}

/** The item at `index` one place up (-1) or down (+1); the list as it was when it cannot move. */
export function move<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[index], next[to]] = [next[to] as T, next[index] as T];
  return next;
}

const DEFAULT_OPTIONS = ["Option 1", "Option 2"];

/** The question as another type: what the new type has no field for goes (the schema takes no extra keys), what it needs is added. */
export function withType(question: Question, type: QuestionType, taken: ReadonlySet<string>): Question {
  const { id, label, help, required, visible_if, sensitive } = question;
  const common = { id, label, ...(help ? { help } : {}), required, ...(visible_if ? { visible_if } : {}), sensitive };
  const options = "options" in question ? question.options : DEFAULT_OPTIONS;
  switch (type) {
    case "choice":
    case "multi_choice":
      return { ...common, type, options };
    case "group":
      return {
        ...common,
        type,
        questions:
          question.type === "group" ? question.questions : [{ id: newId(taken), label: "", type: "text", required: false, sensitive: false }],
        max_entries: question.type === "group" ? question.max_entries : 50,
      };
    default:
      return { ...common, type };
  }
}

export function memberWithType(member: MemberQuestion, type: MemberType): MemberQuestion {
  const { id, label, help, required, visible_if } = member;
  const common = { id, label, ...(help ? { help } : {}), required, ...(visible_if ? { visible_if } : {}), sensitive: false };
  if (type === "choice" || type === "multi_choice") return { ...common, type, options: "options" in member ? member.options : DEFAULT_OPTIONS };
  return { ...common, type };
}

/** Questions a condition can name: answered with one value (not a file or a group). */
export type ConditionTarget = Exclude<Question, { type: "file" | "group" }> | MemberQuestion;

function comparable(q: Question | MemberQuestion): q is ConditionTarget {
  return q.type !== "file" && q.type !== "group";
}

/** The top-level questions before section `si`'s question `qi`, in order, that a condition may name. */
export function earlierQuestions(draft: Draft, si: number, qi: number): ConditionTarget[] {
  const earlier: ConditionTarget[] = [];
  draft.sections.forEach((s, sIndex) =>
    s.questions.forEach((q, qIndex) => {
      if ((sIndex < si || (sIndex === si && qIndex < qi)) && comparable(q)) earlier.push(q);
    }),
  );
  return earlier;
}

/** What a condition on `target` starts as: equals its first answer (Yes, the first option), includes the first option of a multi-choice. */
export function defaultCondition(target: ConditionTarget): VisibleIf {
  switch (target.type) {
    case "yes_no":
      return { question: target.id, equals: true };
    case "choice":
      return { question: target.id, equals: target.options[0] ?? "" };
    case "multi_choice":
      return { question: target.id, includes: target.options[0] ?? "" };
    case "number":
    case "money":
      return { question: target.id, equals: 0 };
    default:
      return { question: target.id, equals: "" };
  }
}

/** A condition's value as typed: a number for a number or money question once it reads as one ("12." stays text while typing). */
export function typedValue(target: ConditionTarget, text: string): string | number {
  if ((target.type === "number" || target.type === "money") && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text);
  return text;
}

/** "Shown when Did you move this year? is Yes", for the question's summary line. */
export function conditionText(condition: VisibleIf, target: Question | MemberQuestion | undefined): string {
  const name = target ? `“${target.label || "Untitled question"}”` : "a question no longer before this one";
  if (condition.includes !== undefined) return `Shown when ${name} includes “${condition.includes}”`;
  const value = condition.equals === true ? "Yes" : condition.equals === false ? "No" : `“${String(condition.equals)}”`;
  return `Shown when ${name} is ${value}`;
}

/**
 * Where the server's issue lies, in words: `["template", "sections", 1, "questions", 2, "label"]`
 * is "Section 2 (“Income”), question 3". Null when the path names no section.
 */
export function issuePlace(path: readonly string[], draft: Draft): string | null {
  const at = path.indexOf("sections");
  if (at < 0 || path[at + 1] === undefined) return null;
  const si = Number(path[at + 1]);
  const section = draft.sections[si];
  if (!section) return null;
  let place = `Section ${si + 1}${section.title ? ` (“${section.title}”)` : ""}`;
  if (path[at + 2] === "questions" && path[at + 3] !== undefined) {
    const qi = Number(path[at + 3]);
    place += `, question ${qi + 1}`;
    const question = section.questions[qi];
    if (question?.type === "group" && path[at + 4] === "questions" && path[at + 5] !== undefined) {
      place += `, its question ${Number(path[at + 5]) + 1}`;
    }
  }
  return place;
}
