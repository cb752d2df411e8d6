// Shows which plans the app's own queries get: runs a procedure through createCaller on a Kysely
// instance that records every query it sends, then EXPLAIN ANALYZEs each recorded query.
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { loadConfig } from "../../server/config.ts";
import type { Database } from "../../server/db/types.ts";
import { createLogger } from "../../server/logger.ts";
import { createCaller } from "../../server/domains/_app.ts";
import { startServer } from "../../server/server.ts";
import { createContextInner } from "../../server/trpc/context.ts";

type Caller = ReturnType<typeof createCaller>;
type Recorded = { sql: string; parameters: readonly unknown[] };
export type ExplainedQuery = { sql: string; scans: string[]; executionMs: number; seqScans: string[] };

const SCAN_NODE =
  /(Seq Scan|Index Scan|Index Only Scan|Bitmap Index Scan|Bitmap Heap Scan)( Backward)?( using (\S+))? on (\S+)|Bitmap Index Scan on (\S+)/;

export async function explainProcedure(
  url: string,
  dataDir: string,
  sessionToken: string,
  call: (caller: Caller) => Promise<unknown>,
): Promise<ExplainedQuery[]> {
  const recorded: Recorded[] = [];
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === "query") recorded.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  // The job queue's scripts (its schema, maintenance) are not the app's queries: run, not recorded.
  const runScript = async (text: string) => ({ rows: (await pool.query(text)).rows ?? [] });
  // startServer builds the services exactly as the app does; its listener on a free port is unused.
  const config = loadConfig({ NODE_ENV: "production", HOST: "127.0.0.1", PORT: "0", DATABASE_URL: url, DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  const server = await startServer({
    config,
    logger: createLogger("silent"),
    database: { db, kind: "postgres", runScript, close: () => db.destroy() },
  });
  try {
    await call(createCaller(createContextInner({ deps: server.deps, sessionToken })));
    const explained: ExplainedQuery[] = [];
    for (const query of recorded) {
      // The session lookup is measured by the API benchmark; here only the procedure's own reads.
      if (query.sql.includes('from "sessions"') || query.sql.includes("pgboss.") || !/^\s*(select|with)/i.test(query.sql)) continue;
      const { rows } = await pool.query(`explain (analyze, format text) ${query.sql}`, query.parameters as unknown[]);
      const lines = rows.map((r: Record<string, string>) => r["QUERY PLAN"] ?? "");
      const scans = lines.flatMap((line) => {
        const m = SCAN_NODE.exec(line);
        return m ? [m[0]] : [];
      });
      const executionMs = Number(/Execution Time: ([\d.]+) ms/.exec(lines.join("\n"))?.[1] ?? Number.NaN);
      explained.push({ sql: query.sql, scans, executionMs, seqScans: scans.filter((s) => s.startsWith("Seq Scan")) });
    }
    return explained;
  } finally {
    await server.close();
  }
}
