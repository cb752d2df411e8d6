// `npm run lint` runs this after ESLint: it fails on any import loop between the repository's own
// files, type imports included. ESLint's import-x/no-cycle (4.18) skips `import type` and
// `{ type X }` imports by design and has no option to count them, and a type loop still ties the
// files of a loop together for whoever reads or moves them (docs/architecture.md, "What may import
// what"). TypeScript's own pre-processor lists every import, export-from and import() of a file.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");
const ROOTS = ["server", "src", "scripts", "test", "migrations"];
const ALIASES = { "@server/": "server/", "@/": "src/" };

function sourceFiles(dir) {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [rel] : [];
  });
}

function isFile(rel) {
  try {
    return statSync(path.join(root, rel)).isFile();
  } catch {
    return false;
  }
}

/** The repository file an import names, or null for a package (or anything outside the repository). */
function resolveImport(from, specifier) {
  let target = null;
  if (specifier.startsWith(".")) target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  for (const [alias, dir] of Object.entries(ALIASES)) if (specifier.startsWith(alias)) target = dir + specifier.slice(alias.length);
  if (target === null) return null;
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`]) if (isFile(candidate)) return candidate;
  return null;
}

const files = ROOTS.flatMap((dir) => (isFile(dir) ? [] : sourceFiles(dir)));
const graph = new Map(
  files.map((file) => {
    const info = ts.preProcessFile(readFileSync(path.join(root, file), "utf8"), true, true);
    const targets = info.importedFiles.map((imported) => resolveImport(file, imported.fileName)).filter((target) => target !== null);
    return [file, [...new Set(targets)]];
  }),
);

// Tarjan's strongly connected components: every loop lies inside one component of two or more
// files (or one file importing itself).
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const loops = [];
function visit(file) {
  index.set(file, counter);
  low.set(file, counter++);
  stack.push(file);
  onStack.add(file);
  for (const next of graph.get(file) ?? []) {
    if (!index.has(next)) {
      visit(next);
      low.set(file, Math.min(low.get(file), low.get(next)));
    } else if (onStack.has(next)) {
      low.set(file, Math.min(low.get(file), index.get(next)));
    }
  }
  if (low.get(file) === index.get(file)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) loops.push(component.sort());
  }
}
for (const file of graph.keys()) if (!index.has(file)) visit(file);

/** One shortest way round a component, starting from its first file, to show in the message. */
function oneLoop(component) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const next of graph.get(file) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const way = [file];
        while (previous.get(way[0])) way.unshift(previous.get(way[0]));
        return [...way, start];
      }
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return component;
}

if (loops.length > 0) {
  for (const component of loops) {
    console.error(`Import loop among ${component.length} files (type imports count):\n  ${oneLoop(component).join("\n  -> ")}`);
    if (component.length > 2) console.error(`  all files of this loop: ${component.join(", ")}`);
  }
  process.exit(1);
}
console.log(`No import loops among ${files.length} files (type imports included).`);
