// The US federal holidays (5 U.S.C. 6103), which the firm's self-booking skips unless it opens on
// them (docs/decisions.md, "Federal holidays in self-booking, phone meetings, export
// confirmation, forms by account kind"). Each is on its observed date: one
// that falls on a Saturday is kept the Friday before, on a Sunday the Monday after (so New Year's
// Day of a year can be observed on December 31 of the year before). Computed, never listed by hand,
// so no year runs out.
import { addDays, isoWeekday } from "./firm-clock.ts";

export type FederalHoliday = { name: string; date: string };

const pad = (n: number) => String(n).padStart(2, "0");
const ymd = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;

/** The `nth` (1-based) ISO weekday of a month; nth -1 is the last. */
function nthWeekday(year: number, month: number, weekday: number, nth: number): string {
  if (nth > 0) {
    const first = ymd(year, month, 1);
    return addDays(first, ((weekday - isoWeekday(first) + 7) % 7) + 7 * (nth - 1));
  }
  const last = addDays(month === 12 ? ymd(year + 1, 1, 1) : ymd(year, month + 1, 1), -1);
  return addDays(last, -((isoWeekday(last) - weekday + 7) % 7));
}

/** A fixed-date holiday moved off the weekend as federal offices observe it. */
function observed(date: string): string {
  const weekday = isoWeekday(date);
  return weekday === 6 ? addDays(date, -1) : weekday === 7 ? addDays(date, 1) : date;
}

const MONDAY = 1;
const THURSDAY = 4;

/** The holidays of `year` on their observed dates, in order (New Year's Day of `year`'s may fall in the year before). */
export function federalHolidays(year: number): FederalHoliday[] {
  return [
    { name: "New Year's Day", date: observed(ymd(year, 1, 1)) },
    { name: "Birthday of Martin Luther King, Jr.", date: nthWeekday(year, 1, MONDAY, 3) },
    { name: "Washington's Birthday", date: nthWeekday(year, 2, MONDAY, 3) },
    { name: "Memorial Day", date: nthWeekday(year, 5, MONDAY, -1) },
    { name: "Juneteenth National Independence Day", date: observed(ymd(year, 6, 19)) },
    { name: "Independence Day", date: observed(ymd(year, 7, 4)) },
    { name: "Labor Day", date: nthWeekday(year, 9, MONDAY, 1) },
    { name: "Columbus Day", date: nthWeekday(year, 10, MONDAY, 2) },
    { name: "Veterans Day", date: observed(ymd(year, 11, 11)) },
    { name: "Thanksgiving Day", date: nthWeekday(year, 11, THURSDAY, 4) },
    { name: "Christmas Day", date: observed(ymd(year, 12, 25)) },
  ];
}

/** The observed federal holidays from `first` to `last` (YYYY-MM-DD, both included). */
export function federalHolidaysBetween(first: string, last: string): FederalHoliday[] {
  const holidays: FederalHoliday[] = [];
  // The next year's New Year's Day may be observed on December 31 of `last`'s year.
  for (let year = Number(first.slice(0, 4)); year <= Number(last.slice(0, 4)) + 1; year++) {
    for (const holiday of federalHolidays(year)) if (holiday.date >= first && holiday.date <= last) holidays.push(holiday);
  }
  return holidays;
}
