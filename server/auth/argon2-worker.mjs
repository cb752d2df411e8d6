// @ts-check
// One password-hashing thread of Argon2Pool (argon2-pool.ts): it lowers its own CPU priority, then
// hashes and verifies what the pool sends, one job at a time. Plain JavaScript, checked by tsc
// through the JSDoc types below, so it loads as it is under tsx, vitest and node alike (a .ts
// worker would need a TypeScript loader in every thread).
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";

/** @typedef {import("./argon2-pool.ts").Job} Job */
/** @typedef {import("./argon2-pool.ts").WorkerData} WorkerData */
/** @typedef {import("./argon2-pool.ts").WorkerReply} WorkerReply */

const { argon2Path, niceness } = /** @type {WorkerData} */ (workerData);
try {
  // On Linux niceness is per thread, and /proc/thread-self names this one.
  const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
  os.setPriority(tid, niceness);
} catch {
  // Not Linux: the thread keeps the normal priority.
}

/** @type {typeof import("@node-rs/argon2")} */
const argon2 = createRequire(import.meta.url)(argon2Path);
const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);

port.on("message", (/** @type {Job} */ job) => {
  /** @type {WorkerReply} */
  let reply;
  try {
    reply = { value: job.op === "hash" ? argon2.hashSync(job.password, job.options) : argon2.verifySync(job.hash, job.password) };
  } catch (err) {
    reply = { error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
});
