// Child processes of the bench (the app, the bare baseline) and their memory, read from /proc.
import { type ChildProcess, fork } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, "../..");

export type Pauses = { loopDelayP99Ms: number; loopDelayMaxMs: number; longestGcMs: number };
export type ChildServer = {
  url: string;
  pid: number;
  stop: () => Promise<void>;
  /** The app child's event-loop delay and GC pauses since `resetPauses` (app-server.ts). */
  resetPauses: () => void;
  pauses: () => Promise<Pauses>;
};

/** Forks `script` under tsx, waits for it to report its port over IPC. */
export async function startChild(
  script: "app-server.ts" | "bare-server.ts" | "floor-server.ts",
  env: Record<string, string>,
  logFile: string,
): Promise<ChildServer> {
  const log = fs.openSync(logFile, "a");
  const child: ChildProcess = fork(path.join(here, script), [], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    // BENCH_APP_NODE_FLAGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the app under load.
    execArgv: ["--import", "tsx", ...(script === "app-server.ts" ? (process.env.BENCH_APP_NODE_FLAGS?.split(" ").filter(Boolean) ?? []) : [])],
    stdio: ["ignore", log, log, "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 60 s (see ${logFile})`)), 60_000);
    child.once("message", (m) => {
      clearTimeout(timer);
      resolve((m as { port: number }).port);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before listening (see ${logFile})`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    resetPauses: () => child.send("pauses:reset"),
    pauses: () =>
      new Promise<Pauses>((resolve) => {
        const onMessage = (m: { pauses?: Pauses }) => {
          if (!m.pauses) return;
          child.off("message", onMessage);
          resolve(m.pauses);
        };
        child.on("message", onMessage);
        child.send("pauses");
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.once("exit", () => {
          clearTimeout(kill);
          fs.closeSync(log);
          resolve();
        });
        child.disconnect();
      }),
  };
}

function statusField(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1];
  if (!kb) throw new Error(`no ${field} for process ${pid}`);
  return Number(kb) * 1024;
}

export const rssBytes = (pid: number) => statusField(pid, "VmRSS");

/**
 * CPU time `pid` has used, every thread of it (the collector's and the thread pool's too), in
 * milliseconds: utime + stime from /proc/<pid>/stat, in the kernel's 100 Hz clock ticks.
 */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Peak resident memory of `pid` while `work` runs: the kernel's own high-water mark, reset first
 * (writing 5 to clear_refs), so no sampling interval can miss a short peak.
 */
export async function peakRssDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; idle: number; peak: number }> {
  const idle = rssBytes(pid);
  fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
  const result = await work();
  return { result, idle, peak: statusField(pid, "VmHWM") };
}
