/*
 * The booking calendar's layout (src/features/appointments/slot-calendar.ts): months Sunday to
 * Saturday, the months between the first and last free time, and free times by the viewer's day.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monthsBetween, monthWeeks, slotsByDay } from "../../src/features/appointments/slot-calendar.ts";

describe("the booking calendar", () => {
  it("lays a month out in weeks from Sunday, with blanks around it", () => {
    const weeks = monthWeeks("2027-03");
    // March 1, 2027 is a Monday; the 31st a Wednesday.
    expect(weeks[0]).toEqual([null, "2027-03-01", "2027-03-02", "2027-03-03", "2027-03-04", "2027-03-05", "2027-03-06"]);
    expect(weeks.at(-1)).toEqual(["2027-03-28", "2027-03-29", "2027-03-30", "2027-03-31", null, null, null]);
    expect(weeks).toHaveLength(5);
    expect(monthWeeks("2028-02").flat().filter(Boolean)).toHaveLength(29);
  });

  it("lists the months from the first to the last free time, across a new year", () => {
    expect(monthsBetween("2026-11", "2027-02")).toEqual(["2026-11", "2026-12", "2027-01", "2027-02"]);
    expect(monthsBetween("2027-03", "2027-03")).toEqual(["2027-03"]);
  });

  describe("in Berlin", () => {
    const zone = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = "Europe/Berlin";
    });
    afterAll(() => {
      process.env.TZ = zone;
    });

    it("groups free times by the viewer's own day, not the firm's", () => {
      const late = { start: "2027-03-16T23:30:00+01:00", end: "2027-03-17T00:30:00+01:00" };
      // 18:00 and 19:00 on the 16th in Chicago (UTC-5) are past midnight in Berlin (UTC+1).
      const chicagoEvening = { start: "2027-03-16T18:00:00-05:00", end: "2027-03-16T19:00:00-05:00" };
      const chicagoLater = { start: "2027-03-16T19:00:00-05:00", end: "2027-03-16T20:00:00-05:00" };
      const days = slotsByDay([late, chicagoEvening, chicagoLater]);
      expect(Object.fromEntries(days)).toEqual({ "2027-03-16": [late], "2027-03-17": [chicagoEvening, chicagoLater] });
    });
  });
});
