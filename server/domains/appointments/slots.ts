// The times a client may book, computed from the firm's rules alone: no database, no clock of its
// own. Opening hours are wall-clock times on the firm's calendar, so the computation walks the
// firm's local dates, turns each range's start and end into instants with the time zone database
// (wallTimeToInstant in firm-clock.ts, which reads skipped and repeated wall times as Postgres
// does), and does everything else (merging overlapping ranges, stepping, buffers, busy times) on
// instants.
import { addDays, isoWeekday, localDate, wallTimeToInstant } from "./firm-clock.ts";
import { federalHolidaysBetween } from "./holidays.ts";

/** Slots start every 30 minutes from the start of each (merged) range of opening hours. */
const SLOT_STEP_MINUTES = 30;

const MINUTE_MS = 60_000;

export type WeeklyHours = {
  /** ISO weekday, Monday = 1 ... Sunday = 7. */
  weekday: number;
  /** Minutes after midnight on the firm's clock; the end may be 1440 (midnight at the end of the day). */
  start_minute: number;
  end_minute: number;
};

export type BookingRules = {
  timeZone: string;
  weekly: readonly WeeklyHours[];
  /** YYYY-MM-DD on the firm's calendar. */
  daysOff: readonly string[];
  /** Closed on the US federal holidays (holidays.ts) as well; the firm's choice, on unless it turns it off. */
  skipFederalHolidays?: boolean;
  minNoticeHours: number;
  /** The last bookable day is this many days after today (the firm's today). */
  horizonDays: number;
};

export type Interval = { start: Date; end: Date };

export type SlotQuery = {
  rules: BookingRules;
  durationMinutes: number;
  /** Kept free after the meeting: it must not run into a busy time either. */
  bufferMinutes: number;
  /** Times already taken, each with its own buffer included. */
  busy: readonly Interval[];
  now: Date;
  /** Only slots that start in [from, to); both default to the whole bookable period. */
  from?: Date;
  to?: Date;
};

/** The free slots, in order: each is the meeting itself, without its buffer. */
export function freeSlots(query: SlotQuery): Interval[] {
  const { rules, busy } = query;
  const duration = query.durationMinutes * MINUTE_MS;
  const occupied = duration + query.bufferMinutes * MINUTE_MS;
  const step = SLOT_STEP_MINUTES * MINUTE_MS;
  const earliest = query.now.getTime() + rules.minNoticeHours * 60 * MINUTE_MS;
  const from = Math.max(query.from?.getTime() ?? -Infinity, earliest);
  const to = query.to?.getTime() ?? Infinity;
  const today = localDate(query.now, rules.timeZone);
  const lastDay = addDays(today, rules.horizonDays);
  const firstDay = localDate(new Date(from), rules.timeZone);
  // A slot of day D starts on D, so days after the local date of `to` have none in range.
  const endDay = Number.isFinite(to) ? minDate(lastDay, localDate(new Date(to), rules.timeZone)) : lastDay;
  const daysOff = new Set(rules.daysOff);
  if (rules.skipFederalHolidays) for (const holiday of federalHolidaysBetween(firstDay, endDay)) daysOff.add(holiday.date);
  const taken = [...busy].sort((a, b) => a.start.getTime() - b.start.getTime());

  const slots: Interval[] = [];
  for (let day = firstDay; day <= endDay; day = addDays(day, 1)) {
    if (daysOff.has(day)) continue;
    for (const open of openIntervals(day, rules)) {
      for (let start = open.start; start + duration <= open.end; start += step) {
        if (start < from || start >= to) continue;
        if (overlapsAny(taken, start, start + occupied)) continue;
        slots.push({ start: new Date(start), end: new Date(start + duration) });
      }
    }
  }
  return slots;
}

/** The day's opening hours as instants, overlapping and touching ranges merged, in order. */
function openIntervals(day: string, rules: BookingRules): Array<{ start: number; end: number }> {
  const weekday = isoWeekday(day);
  const ranges = rules.weekly
    .filter((range) => range.weekday === weekday)
    .map((range) => ({
      start: wallTimeToInstant(day, range.start_minute, rules.timeZone).getTime(),
      end: wallTimeToInstant(day, range.end_minute, rules.timeZone).getTime(),
    }))
    .filter((range) => range.end > range.start)
    .sort((a, b) => a.start - b.start);
  const merged: Array<{ start: number; end: number }> = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

function overlapsAny(sortedBusy: readonly Interval[], start: number, end: number): boolean {
  for (const interval of sortedBusy) {
    if (interval.start.getTime() >= end) return false;
    if (interval.end.getTime() > start) return true;
  }
  return false;
}

function minDate(a: string, b: string): string {
  return a < b ? a : b;
}
