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
   * instances too), on a connection of its own; answers how to stop. Postgres connections are
   * reopened when lost (notifications meanwhile are missed: listeners poll as well). Absent on a
   * handle made for a script, which needs none.
   */
  listen?: (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;
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
    const listen = (channel: string, onPayload: (payload: string) => void) => listenOnPostgres(opts.databaseUrl!, opts.logger, channel, onPayload);
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

async function listenOnPostgres(url: string, logger: Logger, channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (message) => {
      if (message.channel === channel) onPayload(message.payload ?? "");
    });
    next.on("error", (err) => {
      logger.warn({ err: err.message, channel }, "notification listener lost its connection");
      void next.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void connect().catch(() => undefined), RELISTEN_DELAY_MS);
    });
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (err) {
      await next.end().catch(() => undefined);
      if (stopped) return;
      retry = setTimeout(() => void connect().catch(() => undefined), RELISTEN_DELAY_MS);
      throw err;
    }
  };
  await connect();
  return async () => {
    stopped = true;
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
