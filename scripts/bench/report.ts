// The printed table, the machine it ran on, and the recorded copy in docs/performance.md.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "./processes.ts";

export type Row = {
  benchmark: string;
  measured: string;
  baseline: string;
  ratio: string;
  target: string;
  result: "ok" | "MISS" | "info" | "error";
};

export function renderTable(rows: Row[]): string {
  const cells = (r: Row) => [r.benchmark, r.measured, r.baseline, r.ratio, r.target, r.result].map((c) => c.replaceAll("|", "\\|"));
  return [
    "| Benchmark | Measured | Baseline (same run) | Ratio | Target | Result |",
    "|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${cells(r).join(" | ")} |`),
  ].join("\n");
}

function command(file: string, args: string[]): string {
  try {
    return execFileSync(file, args, { encoding: "utf8" }).trim();
  } catch {
    return "unavailable";
  }
}

export function renderMachine(postgresVersion: string, loadBefore: number[]): string {
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(" ");
  return [
    `- Date: ${new Date().toISOString()}`,
    `- CPUs (nproc): ${command("nproc", [])}; ${os.cpus()[0]?.model ?? ""}`,
    `- Memory (free -h): ${command("free", ["-h"]).split("\n")[1]?.replace(/\s+/g, " ") ?? "unavailable"}`,
    `- Node ${process.version}; ${postgresVersion}`,
    `- Load average (1, 5, 15 min): ${load(loadBefore)} before the run, ${load(os.loadavg())} after`,
  ].join("\n");
}

const START = "<!-- bench:results:start -->";
const END = "<!-- bench:results:end -->";

/** Replaces the recorded results in docs/performance.md, keeping the hand-written text around them. */
export function writePerformanceDoc(parts: { machine: string; table: string; plans: string; minutes: string }): void {
  const file = path.join(repoRoot, "docs/performance.md");
  const doc = fs.readFileSync(file, "utf8");
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${file} lacks the ${START} ... ${END} markers`);
  const results = [
    START,
    "",
    "### Machine",
    "",
    parts.machine,
    "",
    "### Results",
    "",
    parts.table,
    "",
    "### Query plans on the scale install",
    "",
    "```",
    parts.plans,
    "```",
    "",
    `The whole run took ${parts.minutes} minutes.`,
    "",
    END,
  ].join("\n");
  fs.writeFileSync(file, doc.slice(0, from) + results + doc.slice(to + END.length));
}
