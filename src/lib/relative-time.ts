const relativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

const STEPS: [unit: Intl.RelativeTimeFormatUnit, seconds: number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "5 minutes ago", "yesterday": how long ago, in the largest unit that fits; under a minute is "just now". */
export function formatRelativeTime(value: Date, now: Date = new Date()): string {
  const seconds = Math.round((value.getTime() - now.getTime()) / 1000);
  for (const [unit, size] of STEPS) {
    if (Math.abs(seconds) >= size) return relativeFormat.format(Math.trunc(seconds / size), unit);
  }
  return "just now";
}
