// The firm's wall clock (FIRM_TIME_ZONE), shared with the pages: a requested appointment is
// stored at the start of the window the client chose, on this clock, until the firm sets a time;
// opening hours and days off are on it. Free of imports, so a page can use it without pulling
// server code into its bundle; the page learns the zone from `site.links`.
//
// A wall time a daylight-saving change skips or repeats is read the way Postgres reads `timestamp
// AT TIME ZONE` (docs/decisions.md, Self-booking): a skipped time with the offset from before the
// change (02:30 on a spring-forward day in Chicago is 03:30 CDT), a repeated one as the later
// instant (01:30 on a fall-back day is 01:30 CST).

type PreferredTime = "morning" | "afternoon" | "evening";

export const WINDOW_START_HOUR: Record<PreferredTime, number> = { morning: 9, afternoon: 12, evening: 17 };

/** The window a requested appointment stands for, from the hour it is stored at; null for another hour. */
export function windowOf(instant: Date, timeZone: string): PreferredTime | null {
  const hour = Number(new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", hour: "numeric" }).format(instant));
  const entry = Object.entries(WINDOW_START_HOUR).find(([, start]) => start === hour);
  return entry ? (entry[0] as PreferredTime) : null;
}

/** "Central Standard Time": the zone's long name at that instant (daylight saving or not). */
export function zoneName(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "long" }).formatToParts(instant);
  return parts.find((part) => part.type === "timeZoneName")?.value ?? timeZone;
}

/** "Central Time": the zone's name without daylight saving or standard time. */
export function genericZoneName(timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longGeneric" }).formatToParts(new Date());
  return parts.find((part) => part.type === "timeZoneName")?.value ?? timeZone;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

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
function offsetMinutes(instant: number, timeZone: string): number {
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
