// CSV as the firm's exports write it (the activity trail, the access log, an account's export).

/** RFC 4180 quoting, and a cell a spreadsheet would run as a formula (= + - @, or a tab or CR first) starts with an apostrophe. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(values: readonly string[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
