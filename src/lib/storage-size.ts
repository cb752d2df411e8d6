const UNITS = ["B", "KB", "MB", "GB", "TB"] as const;
const number = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1, useGrouping: false });

/**
 * Storage in the units quotas are set in (1 KB = 1024 bytes), with at most one decimal: "1.2 GB",
 * "5 GB", "300 KB". Unlike file sizes in document lists (always KB), quotas span bytes to terabytes.
 */
export function formatStorageSize(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  // 1023.96 MB would round to "1024 MB": step up to "1 GB" instead.
  while (unit < UNITS.length - 1 && value >= 1023.95) {
    value /= 1024;
    unit++;
  }
  return `${number.format(value)} ${UNITS[unit]}`;
}

/**
 * The share of a quota in use, 0-100 with one decimal, for a progress bar: a raw ratio such as
 * 2.6e-7 is not a valid aria-valuenow.
 */
export function usedPercent(usedBytes: number, quotaBytes: number): number {
  if (quotaBytes <= 0) return 100;
  return Math.min(100, Math.round((usedBytes / quotaBytes) * 1000) / 10);
}
