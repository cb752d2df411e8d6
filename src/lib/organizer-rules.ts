// The visibility rules of server/domains/organizers/rules.ts, mirrored: the lint rule lets the
// client import only schemas from the server, and the page must hide and show questions as the
// server will when it saves. Keep the two in step (a question is visible when it has no condition,
// or when the question it names is visible and its answer matches).
import type { GroupQuestion, MemberQuestion, Question, Template, VisibleIf } from "@server/domains/organizers/schemas.ts";

export type Values = Readonly<Record<string, unknown>>;

export function topQuestions(template: Template): Question[] {
  return template.sections.flatMap((section) => section.questions);
}

function matches(condition: VisibleIf, value: unknown): boolean {
  if (condition.includes !== undefined) return Array.isArray(value) && value.includes(condition.includes);
  return value !== undefined && value !== null && value === condition.equals;
}

/** The ids of the top-level questions visible with these answers. */
export function visibleIds(template: Template, values: Values): Set<string> {
  const visible = new Set<string>();
  for (const q of topQuestions(template)) {
    if (!q.visible_if || (visible.has(q.visible_if.question) && matches(q.visible_if, values[q.visible_if.question]))) visible.add(q.id);
  }
  return visible;
}

/** A group's members shown in one entry. */
export function visibleMembers(group: GroupQuestion, entry: Values, values: Values, visible: Set<string>): MemberQuestion[] {
  const shown = new Set<string>();
  const memberIds = new Set(group.questions.map((m) => m.id));
  for (const m of group.questions) {
    const condition = m.visible_if;
    if (!condition) shown.add(m.id);
    else if (memberIds.has(condition.question)) {
      if (shown.has(condition.question) && matches(condition, entry[condition.question])) shown.add(m.id);
    } else if (visible.has(condition.question) && matches(condition, values[condition.question])) shown.add(m.id);
  }
  return group.questions.filter((m) => shown.has(m.id));
}

/** The element id of a question's control (a group member: `group[entry].member`, as the server's 422 names it). */
export function controlId(path: string): string {
  return `q-${path.replace(/[[\].]/g, "-")}`;
}

/** The ids in the server's "Answer the required questions first: a, b[0].c, d". */
export function missingFromMessage(message: string): string[] {
  const colon = message.indexOf(":");
  if (colon < 0) return [];
  return message
    .slice(colon + 1)
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
}
