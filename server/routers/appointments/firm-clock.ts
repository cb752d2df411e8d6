// The firm's wall clock (FIRM_TIME_ZONE), shared with the pages: a requested appointment is
// stored at the start of the window the client chose, on this clock, until the firm sets a time.
// Free of imports, so a page can use it without pulling server code into its bundle; the page
// learns the zone from `site.links`.

export type PreferredTime = "morning" | "afternoon" | "evening";

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
