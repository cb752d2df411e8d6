// The template editor's changes (src/features/admin-organizers/template-draft.ts) keep the document
// one the server's templateSchema takes: a type change adds what the type needs and drops what it
// has no field for, a condition starts valid for the question it names, only earlier questions are
// offered, and a refusal's path is said in words.
import { describe, expect, it } from "vitest";
import { READY_TEMPLATES } from "../../server/domains/organizers/ready-templates.ts";
import { QUESTION_TYPES, type Question, templateSchema } from "../../server/domains/organizers/schemas.ts";
import {
  allIds,
  defaultCondition,
  earlierQuestions,
  issuePlace,
  MEMBER_TYPES,
  memberWithType,
  move,
  newSection,
  toDraft,
  toTemplate,
  typedValue,
  withType,
} from "../../src/features/admin-organizers/template-draft.ts";

const ready = READY_TEMPLATES[0]!;

function valid(template: unknown) {
  const parsed = templateSchema.safeParse(template);
  expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues)).toBe(true);
}

describe("the template editor's draft", () => {
  it("round-trips the ready template unchanged", () => {
    expect(toTemplate(toDraft(ready.name, ready.template))).toEqual(ready.template);
  });

  it("turns a question into every type, and a group member into every member type, still valid", () => {
    const draft = toDraft(ready.name, ready.template);
    for (const type of QUESTION_TYPES) {
      const notes = draft.sections[4]!.questions.at(-1)! as Question;
      let changed = withType({ ...notes, label: "Notes" }, type, allIds(draft));
      // A new group's first question starts without a label, as every new question does: the firm writes one.
      if (changed.type === "group") changed = { ...changed, questions: changed.questions.map((m) => ({ ...m, label: "Employer" })) };
      expect(changed.type).toBe(type);
      const sections = draft.sections.map((s, i) => (i === 4 ? { ...s, questions: [...s.questions.slice(0, -1), changed] } : s));
      valid(toTemplate({ ...draft, sections }));
      if (type === "group") {
        for (const memberType of MEMBER_TYPES) {
          const group = changed as Extract<Question, { type: "group" }>;
          const member = memberWithType({ ...group.questions[0]!, label: "Member" }, memberType);
          const withMember = { ...group, questions: [member] };
          valid(
            toTemplate({
              ...draft,
              sections: draft.sections.map((s, i) => (i === 4 ? { ...s, questions: [...s.questions.slice(0, -1), withMember] } : s)),
            }),
          );
        }
      }
    }
    // Back from a choice to text, the options go (the schema takes no extra keys).
    const choice = withType({ id: "x", label: "X", type: "text", required: false, sensitive: false }, "choice", new Set());
    expect(withType(choice, "text", new Set())).not.toHaveProperty("options");
  });

  it("offers a condition only the questions before it, never a file or a group, and starts it valid", () => {
    const draft = toDraft(ready.name, ready.template);
    const beforeRefund = earlierQuestions(draft, 4, 1).map((q) => q.id);
    expect(beforeRefund).toContain("filing_status");
    expect(beforeRefund).toContain("refund_method");
    expect(beforeRefund).not.toContain("bank_account");
    expect(beforeRefund).not.toContain("w2_files");
    expect(beforeRefund).not.toContain("w2_jobs");
    expect(earlierQuestions(draft, 0, 0)).toEqual([]);

    // A condition on each kind of earlier question, put on the last question: valid as it starts.
    for (const target of earlierQuestions(draft, 4, 3)) {
      const sections = draft.sections.map((s, i) =>
        i === 4 ? { ...s, questions: s.questions.map((q, qi) => (qi === 3 ? { ...q, visible_if: defaultCondition(target) } : q)) } : s,
      );
      valid(toTemplate({ ...draft, sections }));
    }
  });

  it("moves within bounds, adds a valid section, and says where a refusal lies", () => {
    expect(move(["a", "b", "c"], 0, 1)).toEqual(["b", "a", "c"]);
    expect(move(["a", "b", "c"], 2, 1)).toEqual(["a", "b", "c"]);
    expect(move(["a", "b", "c"], 0, -1)).toEqual(["a", "b", "c"]);

    const draft = toDraft(ready.name, ready.template);
    const section = newSection(allIds(draft));
    expect(allIds(draft).has(section.questions[0]!.id)).toBe(false);
    valid(
      toTemplate({ ...draft, sections: [...draft.sections, { ...section, title: "More", questions: [{ ...section.questions[0]!, label: "Q" }] }] }),
    );

    expect(issuePlace(["template", "sections", "3", "questions", "2", "label"], draft)).toBe("Section 4 (“Deductions”), question 3");
    expect(issuePlace(["template", "sections", "1", "questions", "1", "questions", "0", "label"], draft)).toBe(
      "Section 2 (“Dependents”), question 2, its question 1",
    );
    expect(issuePlace(["name"], draft)).toBeNull();

    const money = { id: "m", label: "M", type: "money" as const, required: false, sensitive: false };
    expect(typedValue(money, "12.5")).toBe(12.5);
    expect(typedValue(money, "12.")).toBe("12.");
    expect(typedValue({ ...money, type: "text" }, "12")).toBe("12");
  });
});
