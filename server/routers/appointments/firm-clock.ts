// The firm's wall clock, shared with the pages: a requested appointment is stored at the start of
// the window the client chose, on this clock, until the firm sets a time. Free of imports, so a
// page can use it without pulling server code into its bundle.

/** The default site address is in Illinois; a firm elsewhere changes this one constant. */
export const FIRM_TIME_ZONE = "America/Chicago";

export type PreferredTime = "morning" | "afternoon" | "evening";

export const WINDOW_START_HOUR: Record<PreferredTime, number> = { morning: 9, afternoon: 12, evening: 17 };

/** The window a requested appointment stands for, from the hour it is stored at; null for another hour. */
export function windowOf(instant: Date): PreferredTime | null {
  const hour = Number(
    new Intl.DateTimeFormat("en-US", { timeZone: FIRM_TIME_ZONE, hourCycle: "h23", hour: "numeric" }).format(instant),
  );
  const entry = Object.entries(WINDOW_START_HOUR).find(([, start]) => start === hour);
  return entry ? (entry[0] as PreferredTime) : null;
}
