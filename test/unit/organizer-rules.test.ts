// The organizer page's mirror of the server's rules (src/lib/organizer-rules.ts): numbers read as
// typed (issue 48: "about 1200" is refused where it is typed, with the reason), the server's refusal
// read back to its question, and the answers a change hides cleared as the server clears them.
import { describe, expect, it } from "vitest";
import type { Template } from "../../server/domains/organizers/schemas.ts";
import { readNumber, refusalFromMessage, withoutHidden } from "../../src/lib/organizer-rules.ts";

describe("readNumber", () => {
  it.each([
    ["1200", true, 1200],
    ["$1,200.50", true, 1200.5],
    [" 1 200 ", true, 1200],
    ["12.", true, 12],
    [".5", true, 0.5],
    ["-300", true, -300],
    ["", true, null],
    ["3", false, 3],
  ])("reads %j (money: %s) as %j", (typed, money, value) => {
    expect(readNumber(typed, money)).toEqual({ ok: true, value });
  });

  it.each([
    ["about 1200", true, "Not saved: type an amount in dollars and cents, like 1200 or 1,200.50"],
    ["1200 USD", true, "Not saved: type an amount in dollars and cents, like 1200 or 1,200.50"],
    ["12.345", true, "Not saved: type at most two digits of cents, like 1,200.50"],
    ["1.200,50", true, "Not saved: type at most two digits of cents, like 1,200.50"],
    ["1e5", true, "Not saved: type an amount in dollars and cents, like 1200 or 1,200.50"],
    ["twelve", false, "Not saved: type a number, like 2 or 2.5"],
    ["99999999999999", false, "Not saved: type a number, like 2 or 2.5"],
  ])("refuses %j (money: %s) with the reason", (typed, money, reason) => {
    expect(readNumber(typed, money)).toEqual({ ok: false, reason });
  });
});

describe("refusalFromMessage", () => {
  it("reads the path and the reason of the server's refusal", () => {
    expect(
      refusalFromMessage("Answer not saved: w2_jobs[1].wages (“Wages (box 1)”): must be an amount in dollars and cents, like 1200 or 1200.50"),
    ).toEqual({
      path: "w2_jobs[1].wages",
      reason: "Not saved: must be an amount in dollars and cents, like 1200 or 1200.50",
    });
    expect(refusalFromMessage("Answer not saved: nope: not a question of this organizer")).toEqual({
      path: "nope",
      reason: "Not saved: not a question of this organizer",
    });
    expect(refusalFromMessage("Answer the required questions first: a, b")).toBeNull();
  });
});

describe("withoutHidden", () => {
  const template = {
    sections: [
      {
        title: "Life",
        questions: [
          { id: "moved", type: "yes_no", label: "Did you move?", required: true, sensitive: false },
          {
            id: "new_address",
            type: "long_text",
            label: "New address",
            required: true,
            sensitive: false,
            visible_if: { question: "moved", equals: true },
          },
          {
            id: "jobs",
            type: "group",
            label: "One per employer",
            required: false,
            sensitive: false,
            max_entries: 50,
            questions: [
              { id: "left", type: "yes_no", label: "Left?", required: false, sensitive: false },
              { id: "left_on", type: "date", label: "Last day", required: false, sensitive: false, visible_if: { question: "left", equals: true } },
            ],
          },
        ],
      },
    ],
  } as Template;

  it("clears what a change hides, and names each answer to save with it", () => {
    const { values, changed } = withoutHidden(template, {
      moved: false,
      new_address: "1 Elm St",
      jobs: [{ left: false, left_on: "2026-05-01" }, { $keep: 0 }],
    });
    expect(values).toEqual({ moved: false, jobs: [{ left: false }, { $keep: 0 }] });
    expect([...changed]).toEqual([
      ["new_address", null],
      ["jobs", [{ left: false }, { $keep: 0 }]],
    ]);
    expect(withoutHidden(template, { moved: true, new_address: "1 Elm St" }).changed.size).toBe(0);
  });
});
