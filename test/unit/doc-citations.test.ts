// Every `docs/<file>.md, "<Section>"` a comment cites names a heading of that file (issue 49, item 8), so a
// reader who follows the citation finds the section. A heading is cited by its whole text, or without its
// note in parentheses ("(issue 36)", "(2026-11-27)"), or by the part before its subtitle (": ..."):
// "Organizers" cites "## Organizers (issue 36)", "Round 4" cites "## Round 4 (issue 47): mail under the firm's name".
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const scanned = ["server", "src", "scripts", "migrations", "test"];
const sourceFile = /\.(ts|tsx|js|mjs|cjs|sh|css|html)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : filesUnder(path);
    return sourceFile.test(entry.name) ? [path] : [];
  });
}

/** The names a heading may be cited by. */
function namesOf(heading: string): string[] {
  const bare = heading.replace(/\s*\((?:issue |\d{4}-)[^)]*\)/g, "");
  return [heading, bare, heading.split(": ")[0]!, bare.split(": ")[0]!];
}

function headingsOf(doc: string): Set<string> | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, "docs", doc), "utf8");
  } catch {
    return undefined;
  }
  const headings = text.split("\n").flatMap((line) => {
    const match = /^#{1,6} (.+)$/.exec(line);
    return match ? namesOf(match[1]!.trim()) : [];
  });
  return new Set(headings);
}

/** Citations as written, a line break inside a comment (and its `//`, `*` or `#`) read as one space. */
function citationsIn(text: string): Array<{ doc: string; section: string }> {
  const joined = text.replace(/\n[ \t]*(?:\/\/+|\*(?!\/)|#)?[ \t]*/g, " ");
  return [...joined.matchAll(/docs\/([\w-]+\.md),\s*"([^"]+)"/g)].map((m) => ({ doc: m[1]!, section: m[2]! }));
}

describe("citations of the project's docs", () => {
  it("reads a citation broken over comment lines", () => {
    expect(citationsIn('// see (docs/decisions.md,\n// "Client accounts\n// (issue 32)")')).toEqual([
      { doc: "decisions.md", section: "Client accounts (issue 32)" },
    ]);
  });

  it("name a heading of the cited file", () => {
    const headings = new Map<string, Set<string> | undefined>();
    const unresolved: string[] = [];
    let count = 0;
    for (const file of scanned.flatMap((dir) => filesUnder(join(root, dir)))) {
      for (const { doc, section } of citationsIn(readFileSync(file, "utf8"))) {
        if (file === import.meta.filename) continue;
        count += 1;
        if (!headings.has(doc)) headings.set(doc, headingsOf(doc));
        if (!headings.get(doc)?.has(section)) unresolved.push(`${relative(root, file)}: docs/${doc}, "${section}"`);
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(unresolved).toEqual([]);
  });
});
