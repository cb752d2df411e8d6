// The job queue: pg-boss in the app's own database, reached through the app's Kysely connection so
// it runs on Postgres and on the embedded PGlite alike. Every instance works every queue; pg-boss
// hands each job to one of them (SKIP LOCKED) and lets one instance a minute turn due schedules
// into jobs. Each kind of job is a file beside this one; server.ts lists them. A kind may take its
// jobs in batches, several at a time, each completing or failing (and retrying) on its own.
import { CompiledQuery } from "kysely";
import { PgBoss, type Db as BossDb, type JobResult, type JobWithMetadata, type WorkOptions } from "pg-boss";
import type { Logger } from "pino";
import type { DatabaseHandle } from "../db/database.ts";
import { isDatabaseUnavailable, isPgError, UNIQUE_VIOLATION } from "../db/errors.ts";
import type { Db } from "../db/types.ts";
import { carryOverPgBoss10, setAsidePgBoss10 } from "./pgboss-10.ts";

export type JobOptions = {
  /** How often an idle worker asks for work (pg-boss allows 0.5 s and up). */
  pollingIntervalSeconds: number;
  /** A failed job runs again after about this long, then twice as long each time, with jitter. */
  retryDelaySeconds: number;
  retryLimit: number;
  /** How often each instance checks whether a schedule is due (1–45 s). */
  cronMonitorIntervalSeconds: number;
  /** How long stopping waits for jobs under way before handing them back for a retry. */
  stopTimeoutMs: number;
};

/**
 * Retries at about 30 s, 1, 2, 4 ... minutes (each up to twice that, at random): twelve of them
 * span more than a day, so a mail server away for an hour or a night loses nothing.
 */
export const DEFAULT_JOB_OPTIONS: JobOptions = {
  pollingIntervalSeconds: 2,
  retryDelaySeconds: 30,
  retryLimit: 12,
  cronMonitorIntervalSeconds: 30,
  stopTimeoutMs: 10_000,
};

/**
 * What a job's `run` is handed: the app's long-lived services. trpc/context.ts makes this its
 * AppDeps (declaration merging), so the queue names them without importing the context, which
 * holds the queue in turn (`AppDeps.jobs`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging in trpc/context.ts
export interface JobDeps {}

/**
 * What each queue's jobs carry: ids only, never a secret or a message body. Each kind of job adds its
 * own entry from its file (`declare module "./queue.ts"`), the way a job definition owns its payload,
 * so the queue imports no job file and no domain.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging in each job file
export interface JobPayloads {}
type JobName = keyof JobPayloads;

export type Job<N extends JobName> = JobWithMetadata<JobPayloads[N]>;

export type JobKind<N extends JobName = JobName> = {
  name: N;
  /** Cron in UTC (minute precision) for work that runs on a schedule, once per time however many instances run. */
  schedule?: string;
  /** The queue that gets the job once it is out of retries (it must be a kind listed too). */
  deadLetter?: JobName;
  /** pg-boss's queue policy; `stately`: at most one job waiting and one under way (sending more answers null). */
  policy?: "stately";
  /** How often an idle worker of this queue asks for work, when it must be sooner than JobOptions says. */
  pollingIntervalSeconds?: number;
  /**
   * Jobs taken per fetch (`size`), `concurrency` of them running at once; without it, one job per
   * fetch. A full batch fetches again at once instead of waiting for the next poll.
   */
  batch?: { size: number; concurrency: number };
  /** The queue a job sent under this kind's name goes to (another kind with the same handler, say). */
  route?(data: JobPayloads[N]): JobName;
  /**
   * Does one job; a throw makes it run again later (up to the retry limit). A method, so a list of
   * kinds of different payloads can be handed to createJobs as one type.
   */
  run(deps: JobDeps, job: Job<N>): Promise<void>;
};

export type Jobs = {
  /** Enqueues a job; with `tx` the job exists only if that transaction commits; with `startAfter` it waits until then. */
  send<N extends JobName>(name: N, data: JobPayloads[N], opts?: { tx?: Db; startAfter?: Date }): Promise<string>;
  /** Creates the queues and schedules and starts the workers (and the schedule checks). */
  start(deps: JobDeps): Promise<void>;
  /** Stops taking jobs and waits (up to stopTimeoutMs) for the ones under way. */
  stop(): Promise<void>;
  options: JobOptions;
  /** pg-boss itself, for tests and for reading job states. */
  boss: PgBoss;
};

/** pg-boss's database interface over a Kysely database or transaction (statements with parameters). */
function bossDb(db: Db): BossDb {
  return {
    async executeSql(text, values) {
      const result = await db.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: [...result.rows] };
    },
  };
}

export function createJobs(database: DatabaseHandle, logger: Logger, kinds: JobKind[], options: Partial<JobOptions> = {}): Jobs {
  const opts = { ...DEFAULT_JOB_OPTIONS, ...options };
  const viaKysely = bossDb(database.db);
  const boss = new PgBoss({
    db: {
      // Without parameters pg-boss sends scripts (its schema, maintenance under an advisory lock)
      // as one text of several statements.
      executeSql: async (text, values) => {
        try {
          return await (values?.length ? viaKysely.executeSql(text, values) : database.runScript(text));
        } catch (err) {
          // A job still running when stop() gave up waiting is failed by stop() (it retries later),
          // but its handler ends later still, and pg-boss records that end without awaiting the write
          // (and reads its answer): on a closed database the rejection would reach the process. The
          // write is dropped and its promise left unsettled, which holds nothing open
          // (docs/decisions.md, "Mail queues").
          if (stopped) {
            logger.warn({ err: (err as Error).message }, "job queue: a job ended after the queue stopped; it will be retried");
            return new Promise<never>(() => {});
          }
          throw err;
        }
      },
    },
    schema: "pgboss",
    cronMonitorIntervalSeconds: opts.cronMonitorIntervalSeconds,
    // Workers poll the schedule queue at this pace too; a due schedule should not wait 30 s more.
    cronWorkerIntervalSeconds: Math.max(1, Math.min(opts.cronMonitorIntervalSeconds, 45)),
  });
  boss.on("error", (err: Error) => {
    // A database that is down is reported once by the requests that meet it; pg-boss retries on its own.
    if (isDatabaseUnavailable(err)) logger.debug({ err: err.message }, "job queue: database unavailable");
    else logger.warn({ err }, "job queue error");
  });
  const retry = { retryLimit: opts.retryLimit, retryDelay: opts.retryDelaySeconds, retryBackoff: true };
  let started = false;
  let stopped = false;
  const routes = new Map<JobName, (data: unknown) => JobName>();
  for (const kind of kinds) if (kind.route) routes.set(kind.name, kind.route.bind(kind) as (data: unknown) => JobName);

  return {
    boss,
    options: opts,
    async send(name, data, sendOpts = {}) {
      const queue = routes.get(name)?.(data) ?? name;
      const id = await boss.send(queue, data as object, {
        ...retry,
        ...(sendOpts.tx ? { db: bossDb(sendOpts.tx) } : {}),
        ...(sendOpts.startAfter ? { startAfter: sendOpts.startAfter } : {}),
      });
      // pg-boss answers null instead of failing when the queue does not exist.
      if (!id) throw new Error(`job not queued: ${queue}`);
      return id;
    },
    async start(deps) {
      if (await setAsidePgBoss10(database.db)) logger.info("job queue: pg-boss 10's schema set aside for pg-boss 12's");
      await boss.start();
      started = true;
      // A queue names its dead-letter queue, which must exist first.
      for (const kind of [...kinds].sort((a, b) => Number(Boolean(a.deadLetter)) - Number(Boolean(b.deadLetter)))) {
        await createQueue(boss, kind);
      }
      // Before the schedules and the workers: nothing of the new queues runs yet beside the move.
      await carryOverPgBoss10(database.db, logger, new Set(kinds.map((kind) => kind.name)), async (queue, jobs) => {
        await boss.insert(queue, jobs);
      });
      for (const kind of kinds) {
        if (kind.schedule) await boss.schedule(kind.name, kind.schedule, {}, retry);
        await work(boss, deps, kind, opts.pollingIntervalSeconds);
      }
    },
    async stop() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, timeout: opts.stopTimeoutMs });
      stopped = true;
    },
  };
}

/** Runs each job of `kind`'s queue; a job on a queue holds that kind's payload (send() is typed by name). */
async function work<N extends JobName>(boss: PgBoss, deps: JobDeps, kind: JobKind<N>, pollingIntervalSeconds: number): Promise<void> {
  const polling = { pollingIntervalSeconds: kind.pollingIntervalSeconds ?? pollingIntervalSeconds };
  if (!kind.batch) {
    // One job per fetch: its throw fails it (pg-boss retries it later).
    await boss.work<JobPayloads[N], void, WithMetadata>(kind.name, { ...polling, includeMetadata: true, batchSize: 1 }, async (jobs) => {
      for (const job of jobs) await kind.run(deps, job);
    });
    return;
  }
  const { size, concurrency } = kind.batch;
  // Each job of a batch is settled by its own outcome (`perJobResults`): one that threw retries on
  // its own schedule, the others complete. Should pg-boss fail to record the outcomes, it fails the
  // batch's jobs still active, and those that did their work find it done (sent_mail, for mail).
  // A fetch that came back full fetches again at once (`burstWhenBatchFull`), not after the poll.
  const options: PerJob = { ...polling, includeMetadata: true, batchSize: size, perJobResults: true, burstWhenBatchFull: true };
  await boss.work<JobPayloads[N], void, PerJob>(kind.name, options, async (jobs) => {
    const results: JobResult[] = [];
    let next = 0;
    const runner = async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        try {
          await kind.run(deps, job);
          results.push({ id: job.id, status: "completed" });
        } catch (err) {
          results.push({ id: job.id, status: "failed", output: err });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, runner));
    return results;
  });
}

/** The handler's type follows the options' literal flags, so they are spelled as types. */
type WithMetadata = WorkOptions & { includeMetadata: true };
type PerJob = WithMetadata & { perJobResults: true };

const DEADLOCK = "40P01";

/**
 * Instances starting together on a new database create the same queues at once, and pg-boss's
 * create_queue can deadlock with itself then; the loser tries again and finds the queue made.
 */
async function createQueue(boss: PgBoss, kind: JobKind): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(
        kind.name,
        kind.deadLetter || kind.policy
          ? { ...(kind.deadLetter ? { deadLetter: kind.deadLetter } : {}), ...(kind.policy ? { policy: kind.policy } : {}) }
          : undefined,
      );
      return;
    } catch (err) {
      if (!(isPgError(err, DEADLOCK) || isPgError(err, UNIQUE_VIOLATION)) || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200));
    }
  }
}
