// The federal holidays self-booking skips (server/domains/appointments/holidays.ts), against the
// observed dates the US Office of Personnel Management published for these years.
import { describe, expect, it } from "vitest";
import { federalHolidays, federalHolidaysBetween } from "../../server/domains/appointments/holidays.ts";

const PUBLISHED: Record<number, string[]> = {
  // New Year's Day 2022 (a Saturday) was observed on Friday, December 31, 2021: federalHolidays(2022)'s first.
  2022: [
    "2021-12-31",
    "2022-01-17",
    "2022-02-21",
    "2022-05-30",
    "2022-06-20",
    "2022-07-04",
    "2022-09-05",
    "2022-10-10",
    "2022-11-11",
    "2022-11-24",
    "2022-12-26",
  ],
  2023: [
    "2023-01-02",
    "2023-01-16",
    "2023-02-20",
    "2023-05-29",
    "2023-06-19",
    "2023-07-04",
    "2023-09-04",
    "2023-10-09",
    "2023-11-10",
    "2023-11-23",
    "2023-12-25",
  ],
  2026: [
    "2026-01-01",
    "2026-01-19",
    "2026-02-16",
    "2026-05-25",
    "2026-06-19",
    "2026-07-03",
    "2026-09-07",
    "2026-10-12",
    "2026-11-11",
    "2026-11-26",
    "2026-12-25",
  ],
  2027: [
    "2027-01-01",
    "2027-01-18",
    "2027-02-15",
    "2027-05-31",
    "2027-06-18",
    "2027-07-05",
    "2027-09-06",
    "2027-10-11",
    "2027-11-11",
    "2027-11-25",
    "2027-12-24",
  ],
};

describe("federal holidays", () => {
  it.each(Object.entries(PUBLISHED))("%s: the eleven observed dates", (year, dates) => {
    expect(federalHolidays(Number(year)).map((h) => h.date)).toEqual(dates);
  });

  it("names each, Christmas Day last", () => {
    expect(federalHolidays(2026).at(-1)).toEqual({ name: "Christmas Day", date: "2026-12-25" });
    expect(new Set(federalHolidays(2026).map((h) => h.name)).size).toBe(11);
  });

  it("between two dates: those observed in them, the next year's New Year's Day on December 31 included", () => {
    expect(federalHolidaysBetween("2021-12-01", "2021-12-31").map((h) => [h.name, h.date])).toEqual([
      ["Christmas Day", "2021-12-24"],
      ["New Year's Day", "2021-12-31"],
    ]);
    expect(federalHolidaysBetween("2026-12-26", "2027-01-17")).toEqual([{ name: "New Year's Day", date: "2027-01-01" }]);
    expect(federalHolidaysBetween("2026-03-01", "2026-04-30")).toEqual([]);
  });
});
