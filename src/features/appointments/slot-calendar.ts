// The free times as the booking calendar shows them: by day on the viewer's own calendar (the
// browser's time zone), months laid out Sunday to Saturday.
import type { Slot } from "@server/domains/appointments/schemas.ts";

const pad = (n: number) => String(n).padStart(2, "0");

/** YYYY-MM-DD of the instant on the viewer's calendar. */
function localDayKey(instant: Date): string {
  return `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}`;
}

/** YYYY-MM of a day key or an instant on the viewer's calendar. */
export function monthKeyOf(day: string): string {
  return day.slice(0, 7);
}

/** The free times grouped by the viewer's day, in order. */
export function slotsByDay(slots: readonly Slot[]): Map<string, Slot[]> {
  const days = new Map<string, Slot[]>();
  for (const slot of slots) {
    const key = localDayKey(new Date(slot.start));
    const day = days.get(key);
    if (day) day.push(slot);
    else days.set(key, [slot]);
  }
  return days;
}

/** The months (YYYY-MM) from the first to the last one with a free time. */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  let [year, month] = first.split("-").map(Number) as [number, number];
  for (let key = first; key <= last; key = `${year}-${pad(month)}`) {
    months.push(key);
    month += 1;
    if (month === 13) {
      month = 1;
      year += 1;
    }
  }
  return months;
}

/** A month's days as day keys in weeks from Sunday, with null for the blanks before the 1st and after the last. */
export function monthWeeks(monthKey: string): Array<Array<string | null>> {
  const [year, month] = monthKey.split("-").map(Number) as [number, number];
  const first = new Date(year, month - 1, 1);
  const daysInMonth = new Date(year, month, 0).getDate();
  const cells: Array<string | null> = [
    ...Array.from({ length: first.getDay() }, () => null),
    ...Array.from({ length: daysInMonth }, (_, i) => `${monthKey}-${pad(i + 1)}`),
  ];
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

/** A day key as a Date at noon on the viewer's calendar (safe for formatting the date). */
export function dayAsDate(day: string): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(year, month - 1, date, 12);
}

/** The browser's own IANA zone, as Intl knows it. */
export function viewerTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}
