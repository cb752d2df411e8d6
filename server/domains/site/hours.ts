// The opening hours the public site shows (issue 31): a sentence made from the firm's weekly
// availability, unless the firm wrote its own words in contact.hours (docs/site-content.md, Hours).
// The sentence is made here, on the server, so the landing page receives text and ships no code for it.
import type { Context } from "../../trpc/context.ts";
import { findBookingRules } from "../availability/queries.ts";
import { WEEKDAYS } from "../availability/schemas.ts";

type WeeklyRange = { weekday: number; start_minute: number; end_minute: number };

/** What the site says when the firm has no weekly hours at all. */
export const NO_WEEKLY_HOURS = "By appointment";

/** 540 as "9 AM", 570 as "9:30 AM", 0 and 1440 as "12 AM", 720 as "12 PM". */
export function clockTime(minutes: number): string {
  const hour24 = Math.floor(minutes / 60) % 24;
  const minute = minutes % 60;
  const hour12 = hour24 % 12 === 0 ? 12 : hour24 % 12;
  return `${hour12}${minute === 0 ? "" : `:${String(minute).padStart(2, "0")}`} ${hour24 < 12 ? "AM" : "PM"}`;
}

/** One day's ranges, sorted, with touching or overlapping ranges joined: "9 AM-12 PM, 1 PM-5 PM". */
function dayHours(ranges: readonly WeeklyRange[]): string {
  const merged: Array<[number, number]> = [];
  for (const range of [...ranges].sort((a, b) => a.start_minute - b.start_minute)) {
    const last = merged.at(-1);
    if (last && range.start_minute <= last[1]) last[1] = Math.max(last[1], range.end_minute);
    else merged.push([range.start_minute, range.end_minute]);
  }
  return merged.map(([start, end]) => `${clockTime(start)}-${clockTime(end)}`).join(", ");
}

/** "A", "A and B", "A, B and C". */
function joinList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** Weekdays (1-7, sorted) as runs: [1,2,3,5] as "Monday to Wednesday and Friday"; a run of two names both days. */
function dayNames(days: number[]): string {
  const name = (day: number) => WEEKDAYS[day - 1]!.label;
  const parts: string[] = [];
  let i = 0;
  while (i < days.length) {
    let j = i;
    while (j + 1 < days.length && days[j + 1] === days[j]! + 1) j++;
    if (j - i >= 2) parts.push(`${name(days[i]!)} to ${name(days[j]!)}`);
    else for (let k = i; k <= j; k++) parts.push(name(days[k]!));
    i = j + 1;
  }
  return joinList(parts);
}

/**
 * The weekly availability in words, on the firm's clock (where the ranges are kept): days with the
 * same hours together, in week order from Monday, e.g. "Monday to Friday, 9 AM-5 PM; Saturday, 10 AM-2 PM".
 */
export function summarizeWeeklyHours(weekly: readonly WeeklyRange[]): string {
  const byDay = new Map<number, string>();
  for (const weekday of new Set(weekly.map((range) => range.weekday))) {
    byDay.set(weekday, dayHours(weekly.filter((range) => range.weekday === weekday)));
  }
  const groups = new Map<string, number[]>();
  for (const weekday of [...byDay.keys()].sort((a, b) => a - b)) {
    const hours = byDay.get(weekday)!;
    groups.set(hours, [...(groups.get(hours) ?? []), weekday]);
  }
  if (groups.size === 0) return NO_WEEKLY_HOURS;
  return [...groups.entries()].map(([hours, days]) => `${dayNames(days)}, ${hours}`).join("; ");
}

/** The hours the site shows unless contact.hours holds the firm's own words: its weekly availability. */
export async function availabilityHours(ctx: Pick<Context, "db" | "config">): Promise<string> {
  return summarizeWeeklyHours((await findBookingRules(ctx.db, ctx.config.firmTimeZone)).weekly);
}
