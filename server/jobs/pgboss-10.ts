// A database left by pg-boss 10. pg-boss 11 rewrote its schema, and neither it nor 12 upgrades pg-boss
// 10's (schema version 24): the oldest they migrate is 11's (25), and start() refuses an older one.
// Such a database may hold jobs still waiting (mail above all), so before pg-boss starts, its old
// schema is set aside under another name; pg-boss then installs its own, and once the queues exist
// the waiting jobs move into them, with their ids (a mail job finds what it sent by its id, in
// sent_mail), and the old schema is dropped. The renaming runs under an advisory lock, so instances
// starting together do it once. The move may run twice (two instances, or a start that failed before
// the drop and the next start): pg-boss skips a job whose id it holds, so each job arrives once
// (docs/deployment.md, "Upgrades").
import { sql, type Kysely, type Transaction } from "kysely";
import type { Logger } from "pino";
import type { Database, Db } from "../db/types.ts";

const SCHEMA = "pgboss";
const SET_ASIDE = "pgboss_10";
const PGBOSS_10_SCHEMA_VERSION = 24;

/** A waiting job of pg-boss 10's, in what pg-boss 12's insert takes. */
export type CarriedJob = {
  id: string;
  data: object;
  priority: number;
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  startAfter: Date;
  singletonKey?: string;
  expireInSeconds: number;
};

async function locked<T>(db: Kysely<Database>, run: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext('firm-portal: pg-boss 10 carry-over'))`.execute(tx);
    return run(tx);
  });
}

async function exists(db: Db, relation: string): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`select to_regclass(${relation}) is not null as found`.execute(db);
  return rows[0]!.found;
}

/** Renames pg-boss 10's schema out of pg-boss's way; answers whether there was one. */
export async function setAsidePgBoss10(db: Kysely<Database>): Promise<boolean> {
  return locked(db, async (tx) => {
    if (!(await exists(tx, `${SCHEMA}.version`))) return false;
    const { rows } = await sql<{ version: number }>`select version from ${sql.table(`${SCHEMA}.version`)}`.execute(tx);
    if (Number(rows[0]?.version) !== PGBOSS_10_SCHEMA_VERSION) return false;
    await sql`alter schema ${sql.id(SCHEMA)} rename to ${sql.id(SET_ASIDE)}`.execute(tx);
    return true;
  });
}

/**
 * Hands the waiting jobs of a schema set aside to `insert` (pg-boss's, which skips an id it holds),
 * queue by queue, then drops that schema. Jobs that were active when pg-boss 10 stopped wait again:
 * their handlers are idempotent. A job of a queue the app no longer has is dropped, and logged.
 */
export async function carryOverPgBoss10(
  db: Kysely<Database>,
  logger: Logger,
  queues: ReadonlySet<string>,
  insert: (queue: string, jobs: CarriedJob[]) => Promise<void>,
): Promise<void> {
  // Under the lock, so another instance's drop comes before or after the read, not during it.
  const rows = await locked(db, async (tx) => {
    if (!(await exists(tx, `${SET_ASIDE}.job`))) return null;
    const result = await sql<{
      id: string;
      name: string;
      data: object | null;
      priority: number;
      retry_limit: number;
      retry_delay: number;
      retry_backoff: boolean;
      start_after: Date;
      singleton_key: string | null;
      expire_seconds: number;
    }>`select id, name, data, priority, retry_limit, retry_delay, retry_backoff, start_after, singleton_key,
         extract(epoch from expire_in)::int as expire_seconds
       from ${sql.table(`${SET_ASIDE}.job`)} where state in ('created', 'retry', 'active') order by created_on`.execute(tx);
    return result.rows;
  });
  if (!rows) return;
  const byQueue = new Map<string, CarriedJob[]>();
  const dropped: Record<string, number> = {};
  for (const row of rows) {
    if (!queues.has(row.name)) {
      dropped[row.name] = (dropped[row.name] ?? 0) + 1;
      continue;
    }
    const job: CarriedJob = {
      id: row.id,
      data: row.data ?? {},
      priority: row.priority,
      retryLimit: row.retry_limit,
      retryDelay: row.retry_delay,
      retryBackoff: row.retry_backoff,
      startAfter: new Date(row.start_after),
      expireInSeconds: Math.max(1, row.expire_seconds),
      ...(row.singleton_key ? { singletonKey: row.singleton_key } : {}),
    };
    byQueue.set(row.name, [...(byQueue.get(row.name) ?? []), job]);
  }
  for (const [queue, jobs] of byQueue) await insert(queue, jobs);
  await locked(db, (tx) => sql`drop schema if exists ${sql.id(SET_ASIDE)} cascade`.execute(tx));
  const carried = Object.fromEntries([...byQueue].map(([queue, jobs]) => [queue, jobs.length]));
  logger.info({ carried, dropped }, "job queue: jobs waiting in pg-boss 10's schema moved to pg-boss 12's");
}
