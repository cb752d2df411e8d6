// The times a client may book, computed from the firm's rules alone: no database, no clock of its
// own. Opening hours are wall-clock times on the firm's calendar, so the computation walks the
// firm's local dates, turns each range's start and end into instants with the time zone database
// (Intl), and does everything else (merging overlapping ranges, stepping, buffers, busy times) on
// instants. A wall time a daylight-saving change skips or repeats is read the way Postgres reads
// `timestamp AT TIME ZONE` (docs/decisions.md, Self-booking): a skipped time with the offset from
// before the change (02:30 on a spring-forward day in Chicago is 03:30 CDT), a repeated one as the
// later instant (01:30 on a fall-back day is 01:30 CST).

/** Slots start every 30 minutes from the start of each (merged) range of opening hours. */
export const SLOT_STEP_MINUTES = 30;

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

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

/**
 * The instant at which the wall clock of `timeZone` shows `date` at `minute` minutes after
 * midnight (1440: the next midnight). Skipped and repeated wall times as Postgres reads them (see the top).
 */
export function wallTimeToInstant(date: string, minute: number, timeZone: string): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, 0, minute);
  // The offsets a day either side cover both sides of any one change near this time.
  const before = offsetMinutes(wall - DAY_MS, timeZone);
  const after = offsetMinutes(wall + DAY_MS, timeZone);
  const readings = [before, after]
    .map((offset) => wall - offset * MINUTE_MS)
    .filter((instant) => offsetMinutes(instant, timeZone) * MINUTE_MS === wall - instant);
  if (readings.length > 0) return new Date(Math.max(...readings));
  return new Date(wall - before * MINUTE_MS);
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `instant`, in minutes (Chicago in winter: -360). */
export function offsetMinutes(instant: number, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    offsetFormats.set(timeZone, format);
  }
  const name = format.formatToParts(instant).find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const match = /^GMT([+-])(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]) + Number(match[4] ?? 0) / 60;
  return match[1] === "-" ? -minutes : minutes;
}

/** YYYY-MM-DD of `instant` on the calendar of `timeZone`. */
export function localDate(instant: Date, timeZone: string): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dateFormats.set(timeZone, format);
  }
  return format.format(instant);
}

/** "2026-03-09T09:00:00-05:00": the instant written with the zone's offset at that moment. */
export function isoWithOffset(instant: Date, timeZone: string): string {
  const offset = offsetMinutes(instant.getTime(), timeZone);
  const wall = new Date(instant.getTime() + offset * MINUTE_MS).toISOString().slice(0, 19);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(Math.round(offset));
  return `${wall}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** ISO weekday of a calendar date: Monday = 1 ... Sunday = 7. */
export function isoWeekday(date: string): number {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return ((new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7) + 1;
}

function minDate(a: string, b: string): string {
  return a < b ? a : b;
}
