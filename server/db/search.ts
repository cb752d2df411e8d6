/** One page of a list: an optional search text, and the window of rows. */
export type PageWindow = { q?: string; limit: number; offset: number };

/** A `%...%` pattern for ILIKE in which `%`, `_` and `\` typed into a search box are meant literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
