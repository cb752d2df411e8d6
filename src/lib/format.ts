/**
 * A file size as the spec shows it: bytes / 1024 with one decimal, e.g. "12.3 KB". A file too
 * small to show a tenth of a KB reads "< 0.1 KB", never "0.0 KB", which would look empty.
 */
export function formatFileSizeKB(bytes: number): string {
  const kb = (bytes / 1024).toFixed(1);
  return kb === "0.0" && bytes > 0 ? "< 0.1 KB" : `${kb} KB`;
}

/** A file name cut before its extension ("report.final", ".pdf"), so a shortened name can keep the extension in view. */
export function splitExtension(name: string): [base: string, extension: string] {
  const dot = name.lastIndexOf(".");
  // No dot, a leading dot (".env") or an "extension" too long to be one: nothing to keep apart.
  if (dot <= 0 || name.length - dot > 8) return [name, ""];
  return [name.slice(0, dot), name.slice(dot)];
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A calendar date in the user's locale, e.g. "Mar 4, 2025". */
export function formatDate(value: Date | string | number): string {
  return dateFormat.format(new Date(value));
}

const zonedDateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const zoneNameFormat = new Intl.DateTimeFormat(undefined, { timeZoneName: "short" });

/** A date and time in the user's zone, with the zone named: "Mar 4, 2025, 2:30 PM CST". */
export function formatDateTimeWithZone(value: Date | string | number): string {
  const date = new Date(value);
  const zone = zoneNameFormat.formatToParts(date).find((part) => part.type === "timeZoneName")?.value;
  return zone ? `${zonedDateTimeFormat.format(date)} ${zone}` : zonedDateTimeFormat.format(date);
}

/** A date and time in the user's locale and time zone, e.g. "Mar 4, 2025, 2:30 PM". */
export function formatDateTime(value: Date | string | number): string {
  return dateTimeFormat.format(new Date(value));
}

const calendarDateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });

/** A day given as YYYY-MM-DD (a due date on the firm's calendar) in the user's locale, e.g. "Mar 4, 2025", the same day everywhere. */
export function formatCalendarDate(date: string): string {
  return calendarDateFormat.format(new Date(`${date}T00:00:00Z`));
}
