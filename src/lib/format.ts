/** A file size as the spec shows it: bytes / 1024 with one decimal, e.g. "12.3 KB". */
export function formatFileSizeKB(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A calendar date in the user's locale, e.g. "Mar 4, 2025". */
export function formatDate(value: Date | string | number): string {
  return dateFormat.format(new Date(value));
}

/** A date and time in the user's locale and time zone, e.g. "Mar 4, 2025, 2:30 PM". */
export function formatDateTime(value: Date | string | number): string {
  return dateTimeFormat.format(new Date(value));
}
