// argon2id on worker threads of their own, at a lower CPU priority than everything else.
//
// @node-rs/argon2's async functions already run off the event loop, on libuv's thread pool, but
// there they compete for the CPU on equal terms: on a small machine a burst of logins takes every
// core and every other request waits behind it (the benchmark measured reads' p99 4x worse under
// 20 logins/s on 2 cores). Here each hashing thread lowers its own scheduling priority (on Linux
// niceness is per thread), so request handling and Postgres run first and hashing gets the CPU
// time left over. Piscina offers the same through an optional native module; a few lines here avoid
// that dependency.
import { createRequire } from "node:module";
import os from "node:os";
import { Worker } from "node:worker_threads";
import type { Options } from "@node-rs/argon2";

/** Niceness of the hashing threads: 10 gives them about a tenth of a core next to busy normal work. */
const HASHING_NICENESS = 10;

export type Job = { op: "hash"; password: string; options: Options } | { op: "verify"; hash: string; password: string };
export type WorkerData = { argon2Path: string; niceness: number };
export type WorkerReply = { value: string | boolean } | { error: string };
type Pending = {
  job: Job;
  resolve: (value: string | boolean) => void;
  reject: (err: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
};
type Slot = { worker: Worker; current: Pending | null };

/** argon2 refused the input itself (a malformed stored hash); not a failure of the pool. */
export class Argon2InputError extends Error {}

/** The queue is full: the job was refused without waiting. */
export class Argon2BusyError extends Error {
  constructor() {
    super("password hashing queue is full");
  }
}

/** Jobs that may wait for a thread, per thread: at about 20 ms a hash, at most a third of a second. */
const QUEUED_PER_THREAD = 16;

export class Argon2Pool {
  readonly #argon2Path = createRequire(import.meta.url).resolve("@node-rs/argon2");
  readonly #slots: Slot[] = [];
  readonly #queue: Pending[] = [];

  /**
   * At most 4 threads, as libuv's pool had: each hash holds 19 MiB while it runs, and a burst of
   * logins on a many-core host must not turn into gigabytes. The queue is bounded too: unbounded,
   * a flood of logins made every later one wait behind all of it (57 s after 6,000).
   */
  constructor(
    readonly size = Math.min(4, os.availableParallelism()),
    readonly maxQueued = QUEUED_PER_THREAD * size,
  ) {}

  /** Jobs waiting for a thread. */
  get queued(): number {
    return this.#queue.length;
  }

  /** A job given now would be refused. */
  get full(): boolean {
    const idle = this.#slots.some((s) => s.current === null) || this.#slots.length < this.size;
    return !idle && this.#queue.length >= this.maxQueued;
  }

  /** Rejects with Argon2BusyError when the queue is full. */
  hash(password: string, options: Options): Promise<string> {
    return this.#run({ op: "hash", password, options }) as Promise<string>;
  }

  /**
   * Resolves false for a wrong password; rejects with Argon2InputError for a malformed hash, with
   * a plain Error when the hashing thread failed, with Argon2BusyError when the queue is full, and
   * with the signal's reason once it aborts before a thread took the job (its request has gone).
   */
  verify(hash: string, password: string, signal?: AbortSignal): Promise<boolean> {
    return this.#run({ op: "verify", hash, password }, signal) as Promise<boolean>;
  }

  #run(job: Job, signal?: AbortSignal): Promise<string | boolean> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      if (this.full) return reject(new Argon2BusyError());
      const pending: Pending = { job, resolve, reject, signal };
      if (signal) {
        // Leaves the queue at once, so jobs of requests that have gone neither run nor fill it.
        pending.onAbort = () => {
          const index = this.#queue.indexOf(pending);
          if (index === -1) return;
          this.#queue.splice(index, 1);
          reject(signal.reason);
        };
        signal.addEventListener("abort", pending.onAbort, { once: true });
      }
      this.#queue.push(pending);
      this.#dispatch();
    });
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const slot = this.#slots.find((s) => s.current === null) ?? (this.#slots.length < this.size ? this.#spawn() : null);
      if (!slot) return;
      const next = this.#queue.shift()!;
      if (next.onAbort) next.signal!.removeEventListener("abort", next.onAbort);
      slot.current = next;
      slot.worker.ref();
      slot.worker.postMessage(next.job);
    }
  }

  #spawn(): Slot {
    const workerData: WorkerData = { argon2Path: this.#argon2Path, niceness: HASHING_NICENESS };
    const worker = new Worker(new URL("./argon2-worker.mjs", import.meta.url), {
      workerData,
    });
    const slot: Slot = { worker, current: null };
    worker.on("message", (msg: WorkerReply) => {
      const done = slot.current;
      slot.current = null;
      worker.unref();
      if ("error" in msg) done?.reject(new Argon2InputError(msg.error));
      else done?.resolve(msg.value);
      this.#dispatch();
    });
    const retire = (err: Error) => {
      const index = this.#slots.indexOf(slot);
      if (index === -1) return;
      this.#slots.splice(index, 1);
      slot.current?.reject(err);
      slot.current = null;
      this.#dispatch();
    };
    worker.on("error", retire);
    worker.on("exit", (code) => retire(new Error(`password hashing thread exited with code ${code}`)));
    worker.unref();
    this.#slots.push(slot);
    return slot;
  }
}
