import { describe, expect, it } from "vitest";
import { clockTime, NO_WEEKLY_HOURS, summarizeWeeklyHours } from "../../server/domains/site/hours.ts";

const range = (weekday: number, start: string, end: string) => {
  const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
  return { weekday, start_minute: minutes(start), end_minute: minutes(end) };
};
const days = (from: number, to: number, start: string, end: string) => Array.from({ length: to - from + 1 }, (_, i) => range(from + i, start, end));

describe("clockTime", () => {
  it("writes 12-hour times, minutes only when there are some", () => {
    expect(clockTime(9 * 60)).toBe("9 AM");
    expect(clockTime(9 * 60 + 30)).toBe("9:30 AM");
    expect(clockTime(12 * 60)).toBe("12 PM");
    expect(clockTime(17 * 60 + 5)).toBe("5:05 PM");
    expect(clockTime(0)).toBe("12 AM");
    expect(clockTime(24 * 60)).toBe("12 AM");
  });
});

describe("summarizeWeeklyHours", () => {
  it("says the shipped availability as the site used to", () => {
    expect(summarizeWeeklyHours(days(1, 5, "09:00", "17:00"))).toBe("Monday to Friday, 9 AM-5 PM");
  });

  it("groups the days with the same hours, in week order, whatever order the ranges come in", () => {
    const weekly = [range(6, "10:00", "14:00"), ...days(1, 5, "09:00", "17:00").reverse()];
    expect(summarizeWeeklyHours(weekly)).toBe("Monday to Friday, 9 AM-5 PM; Saturday, 10 AM-2 PM");
  });

  it("names two days with the same hours with 'and', and a gap in the week as its own part", () => {
    expect(summarizeWeeklyHours([...days(6, 7, "10:00", "14:00")])).toBe("Saturday and Sunday, 10 AM-2 PM");
    const weekly = [...days(1, 3, "09:00", "17:00"), range(4, "09:00", "19:00"), range(5, "09:00", "17:00")];
    expect(summarizeWeeklyHours(weekly)).toBe("Monday to Wednesday and Friday, 9 AM-5 PM; Thursday, 9 AM-7 PM");
    expect(summarizeWeeklyHours([range(1, "09:00", "12:00"), range(3, "09:00", "12:00"), range(5, "09:00", "12:00")])).toBe(
      "Monday, Wednesday and Friday, 9 AM-12 PM",
    );
  });

  it("lists a day's separate ranges and joins ranges that touch or overlap", () => {
    const split = [range(2, "13:00", "17:30"), range(2, "08:30", "12:00")];
    expect(summarizeWeeklyHours(split)).toBe("Tuesday, 8:30 AM-12 PM, 1 PM-5:30 PM");
    const touching = [range(2, "09:00", "12:00"), range(2, "12:00", "17:00"), range(2, "16:00", "18:00")];
    expect(summarizeWeeklyHours(touching)).toBe("Tuesday, 9 AM-6 PM");
  });

  it("says 'By appointment' without weekly hours", () => {
    expect(summarizeWeeklyHours([])).toBe(NO_WEEKLY_HOURS);
  });
});
