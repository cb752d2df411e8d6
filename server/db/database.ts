import fs from "node:fs";
import path from "node:path";
import { CompiledQuery, Kysely, Migrator, PostgresDialect } from "kysely";
import pg from "pg";
import type { Logger } from "pino";
import { migrations } from "../../migrations/index.ts";
import type { Database } from "./types.ts";

// Both drivers return the same JS values: int8 as number (counts, sizes), date as 'YYYY-MM-DD'.
const INT8 = 20;
const DATE = 1082;
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(DATE, (v) => v);

export const POOL_SIZE = 10;

export type DatabaseHandle = {
  db: Kysely<Database>;
  kind: "postgres" | "embedded";
  /**
   * Runs SQL text that may hold several statements (its own BEGIN ... COMMIT included) on one
   * connection, and returns the rows of its statements. A failed statement is followed by ROLLBACK,
   * so the connection goes back to the others without a half-open transaction.
   */
  runScript: (text: string) => Promise<{ rows: unknown[] }>;
  /**
   * Calls `onPayload` with each NOTIFY on `channel` from any connection to this database (other
   * instances too), on a connection of its own; answers how to stop. A Postgres connection that is
   * lost (or stops answering its ping) is reopened, and `onReconnect` called: notifications meanwhile
   * were missed, so listeners should ask again for what they show. Absent on a handle made for a
   * script, which needs none.
   */
  listen?: (channel: string, onPayload: (payload: string) => void, onReconnect: () => void) => Promise<() => Promise<void>>;
  close: () => Promise<void>;
};

export async function openDatabase(opts: {
  databaseUrl?: string;
  /** The embedded database lives in `<dataDir>/pgdata`; "memory://" keeps it in memory (tests). */
  dataDir: string;
  logger: Logger;
}): Promise<DatabaseHandle> {
  if (opts.databaseUrl) {
    // Connections stay open once made (min = max): a connection closed when idle and reopened in the
    // next burst costs a new backend and its cold caches, tens of milliseconds for the requests
    // that wait on it.
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: POOL_SIZE, min: POOL_SIZE, connectionTimeoutMillis: 5000 });
    // An idle client's error (server restart, terminated backend) would otherwise crash the process.
    pool.on("error", (err) => opts.logger.warn({ err: err.message }, "postgres pool client error"));
    // pg-pool removes that listener while a client is checked out, and pg emits 'error' when the
    // connection dies even between two statements of a transaction: without a listener of the
    // client's own, that is an uncaught exception and the process exits (found by the fault test).
    pool.on("connect", (client) => {
      client.on("error", (err) => opts.logger.warn({ err: err.message }, "postgres connection lost"));
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    // Without parameters pg sends the simple query protocol, which accepts several statements.
    const runScript = (text: string) =>
      db.connection().execute((conn) =>
        rollingBack(
          () => conn.executeQuery(CompiledQuery.raw(text)),
          () => conn.executeQuery(CompiledQuery.raw("ROLLBACK")),
        ),
      );
    const listen = (channel: string, onPayload: (payload: string) => void, onReconnect: () => void) =>
      listenOnPostgres(opts.databaseUrl!, opts.logger, { channel, onPayload, onReconnect });
    return { db, kind: "postgres", runScript, listen, close: () => db.destroy() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGliteDialect } = await import("kysely-pglite-dialect");
  // Trigram search indexes (migrations) need pg_trgm, and the appointments' exclusion constraint
  // btree_gist: PGlite loads an extension only when asked.
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { btree_gist } = await import("@electric-sql/pglite/contrib/btree_gist");
  const dir = opts.dataDir === "memory://" ? "memory://" : path.join(opts.dataDir, "pgdata");
  if (dir !== "memory://") fs.mkdirSync(dir, { recursive: true });
  const pglite = new PGlite(dir, {
    parsers: { [INT8]: (v: string) => Number(v), [DATE]: (v: string) => v },
    extensions: { pg_trgm, btree_gist },
  });
  // Open means ready: closed while still starting, PGlite went on reading its folder after it was
  // closed (and removed), and rejected at the process with ENOENT.
  await pglite.waitReady;
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  // PGlite's query() takes one statement; exec() takes several. Holding Kysely's one connection
  // meanwhile keeps the script out of a transaction someone else has open.
  const runScript = (text: string) =>
    db.connection().execute(() =>
      rollingBack(
        async () => ({ rows: (await pglite.exec(text)).flatMap((result) => result.rows) }),
        () => pglite.exec("ROLLBACK"),
      ),
    );
  const listen = async (channel: string, onPayload: (payload: string) => void) => {
    const unlisten = await pglite.listen(channel, onPayload);
    return async () => {
      if (!pglite.closed) await unlisten();
    };
  };
  return { db, kind: "embedded", runScript, listen, close: () => db.destroy() };
}

const RELISTEN_DELAY_MS = 1000;
/** An idle LISTEN connection can die without an error (a NAT or a failover forgets it): a ping finds out. */
const LISTEN_PING_MS = 30_000;
const LISTEN_TIMEOUT_MS = 10_000;

type Listening = { channel: string; onPayload: (payload: string) => void; onReconnect: () => void };

/**
 * LISTEN on a connection of its own. The first connection's failure is the caller's (nothing is
 * left retrying behind it); a later loss is retried, one attempt at a time, until it listens again.
 */
async function listenOnPostgres(url: string, logger: Logger, { channel, onPayload, onReconnect }: Listening): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const scheduleRetry = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().then(onReconnect, (err: unknown) => {
        logger.warn({ err: err instanceof Error ? err.message : err, channel }, "notification listener could not reconnect");
        scheduleRetry();
      });
    }, RELISTEN_DELAY_MS);
  };
  const lose = (lost: pg.Client, reason: string) => {
    if (client !== lost) return;
    logger.warn({ reason, channel }, "notification listener lost its connection");
    client = undefined;
    void lost.end().catch(() => undefined);
    scheduleRetry();
  };
  const connect = async () => {
    const next = new pg.Client({
      connectionString: url,
      keepAlive: true,
      connectionTimeoutMillis: LISTEN_TIMEOUT_MS,
      query_timeout: LISTEN_TIMEOUT_MS,
    });
    next.on("notification", (message) => {
      if (message.channel === channel) onPayload(message.payload ?? "");
    });
    next.on("error", (err) => lose(next, err.message));
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      await next.end().catch(() => undefined);
      throw err;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
  };
  await connect();
  const ping = setInterval(() => {
    const current = client;
    current?.query("select 1").catch((err: unknown) => lose(current, err instanceof Error ? err.message : "ping failed"));
  }, LISTEN_PING_MS);
  ping.unref();
  return async () => {
    stopped = true;
    clearInterval(ping);
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

async function rollingBack<T>(run: () => Promise<T>, rollback: () => Promise<unknown>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    // Outside a transaction this only warns; with the connection gone it fails, and that is fine.
    await rollback().catch(() => undefined);
    throw err;
  }
}

export async function migrateToLatest(db: Kysely<Database>, logger: Logger): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === "Success") logger.info({ migration: r.migrationName }, "migration applied");
    if (r.status === "Error") logger.error({ migration: r.migrationName }, "migration failed");
  }
  if (error) throw error;
}
