// The visibility rules of server/domains/organizers/rules.ts, mirrored: the lint rule lets the
// client import only schemas from the server, and the page must hide and show questions as the
// server will when it saves. Keep the two in step (a question is visible when it has no condition,
// or when the question it names is visible and its answer matches).
import {
  type GroupQuestion,
  KEEP_ENTRY,
  type MemberQuestion,
  type Question,
  type Template,
  type VisibleIf,
} from "@server/domains/organizers/schemas.ts";

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
export function visibleMembers(group: GroupQuestion, entry: Values, values: Values, visible: ReadonlySet<string>): MemberQuestion[] {
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

/** A number or an amount as typed: its value (null when empty), or why it is not one (the field says so, and it is not saved). */
export function readNumber(typed: string, money: boolean): { ok: true; value: number | null } | { ok: false; reason: string } {
  const cleaned = typed.replace(/[$,\s]/g, "");
  if (cleaned === "") return { ok: true, value: null };
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(cleaned) || !Number.isFinite(Number(cleaned)) || Math.abs(Number(cleaned)) >= 1e13) {
    return {
      ok: false,
      reason: money ? "Not saved: type an amount in dollars and cents, like 1200 or 1,200.50" : "Not saved: type a number, like 2 or 2.5",
    };
  }
  if (money && /\.\d{3,}$/.test(cleaned)) return { ok: false, reason: "Not saved: type at most two digits of cents, like 1,200.50" };
  return { ok: true, value: Number(cleaned) };
}

/** The path and the reason in the server's "Answer not saved: w2_jobs[0].wages (“Wages”): must be an amount ...". */
export function refusalFromMessage(message: string): { path: string; reason: string } | null {
  const match = /^Answer not saved: ([^\s:(]+)(?: \(“[^”]*”\))?: ([\s\S]+)$/.exec(message);
  return match ? { path: match[1]!, reason: `Not saved: ${match[2]!}` } : null;
}

/** An entry of a group answer that keeps the saved entry at that place (a sensitive group's entries never reach the page). */
export type KeptEntry = { [KEEP_ENTRY]: number };
export const isKept = (entry: unknown): entry is KeptEntry => typeof entry === "object" && entry !== null && KEEP_ENTRY in entry;

/**
 * What the server will keep of these answers once saved (server/domains/organizers/service.ts):
 * no answer to a question now hidden, and in a group's entries no answer to a member now hidden.
 * `changed` names each answer that differs, with its new value (null: cleared), to be saved with
 * the change that hid it, so the page never shows an answer the server no longer has.
 */
export function withoutHidden(template: Template, values: Values): { values: Record<string, unknown>; changed: Map<string, unknown> } {
  const next: Record<string, unknown> = { ...values };
  const changed = new Map<string, unknown>();
  const visible = visibleIds(template, next);
  for (const q of topQuestions(template)) {
    if (next[q.id] === undefined) continue;
    if (!visible.has(q.id)) {
      delete next[q.id];
      changed.set(q.id, null);
    } else if (q.type === "group" && Array.isArray(next[q.id])) {
      const entries = next[q.id] as Array<Record<string, unknown>>;
      const pruned = entries.map((entry) => {
        if (isKept(entry)) return entry;
        const shown = new Set(visibleMembers(q, entry, next, visible).map((m) => m.id));
        return Object.fromEntries(Object.entries(entry).filter(([id]) => shown.has(id)));
      });
      if (JSON.stringify(pruned) !== JSON.stringify(entries)) {
        next[q.id] = pruned;
        changed.set(q.id, pruned);
      }
    }
  }
  return { values: next, changed };
}
