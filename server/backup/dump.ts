// The firm's data as archive contents (archive.ts), read by the app itself so it is the same on
// Postgres and on the embedded database, with no pg_dump (docs/safeguards.md, "Backup and restore").
//
// The rows come from one REPEATABLE READ READ ONLY transaction: one snapshot of every table, taken
// while the app goes on writing. Each column travels as Postgres's own text for its value (bytea as
// hex, timestamptz with its offset in UTC, json as written, numeric and bigint as digits, arrays in
// their literal form), which its type's input function reads back exactly on restore. The stored
// objects the snapshot names are copied after it, as the storage holds them (still encrypted under
// their data keys, which are rows of stored_object_keys): they never change once written (each
// upload has a new random key), so only one deleted since the snapshot can be missing, and that is
// recorded in the end record rather than failing the night's backup; one whose row is still there
// fails it (the wrong storage, or a lost object).
import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../db/types.ts";
import { ObjectNotFoundError, type ObjectStorage } from "../storage/storage.ts";
import { record, RecordType } from "./archive.ts";

export const ARCHIVE_CONTENTS_VERSION = 1;

/**
 * Not in the archive: the migrator's own bookkeeping (the manifest names the migrations instead,
 * and restore runs them). pg-boss's schema is not public's and is not read at all: it is pg-boss's
 * own, created and upgraded by pg-boss when the app starts, and the recurring jobs are scheduled
 * again then. What it holds is work in flight (a queued email); restoring it would send again,
 * from a restored copy, what the original may already have sent.
 */
export const SKIPPED_TABLES = ["kysely_migration", "kysely_migration_lock"];

const FETCH_ROWS = 500;
const FRAME_TARGET = 256 * 1024;

export type Column = { name: string; type: string };
export type TableManifest = { name: string; columns: Column[] };
export type Manifest = {
  version: number;
  created_at: string;
  database: "postgres" | "embedded";
  migrations: string[];
  tables: TableManifest[];
};
export type EndRecord = { tables: Record<string, number>; objects: number; object_bytes: number; missing_objects: string[] };

export type DumpSummary = EndRecord;

type Db = Kysely<Database> | Transaction<Database>;

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Text output that reads back the same whatever the server's defaults: the restore sets the same. */
export async function setPortableOutput(trx: Db): Promise<void> {
  await sql`select set_config('timezone', 'UTC', true), set_config('datestyle', 'ISO, YMD', true), set_config('intervalstyle', 'postgres', true), set_config('bytea_output', 'hex', true), set_config('extra_float_digits', '1', true)`.execute(
    trx,
  );
}

/** The public schema's tables (the skipped ones aside) and their stored columns, in column order. */
export async function listTables(trx: Db): Promise<TableManifest[]> {
  const { rows } = await sql<{ table: string; column: string; type: string }>`
    select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as "type"
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
    where n.nspname = 'public' and c.relkind in ('r', 'p')
    order by c.relname, a.attnum`.execute(trx);
  const tables = new Map<string, Column[]>();
  for (const row of rows) {
    if (SKIPPED_TABLES.includes(row.table)) continue;
    const columns = tables.get(row.table) ?? [];
    columns.push({ name: row.column, type: row.type });
    tables.set(row.table, columns);
  }
  return [...tables].map(([name, columns]) => ({ name, columns }));
}

export async function appliedMigrations(trx: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(trx);
  return rows.map((r) => r.name);
}

/** A table's rows as JSON lines, read through a cursor a batch at a time; counts them in `counted`. */
async function* tableLines(trx: Db, table: TableManifest, counted: (n: number) => void): AsyncGenerator<string> {
  const values = table.columns.map((c) => `${quoteIdent(c.name)}::text`).join(", ");
  await sql
    .raw(`declare backup_rows no scroll cursor for select to_json(array[${values}])::text as line from ${quoteIdent(table.name)}`)
    .execute(trx);
  let pending = "";
  for (;;) {
    const { rows } = await sql.raw<{ line: string }>(`fetch forward ${FETCH_ROWS} from backup_rows`).execute(trx);
    for (const row of rows) {
      pending += `${row.line}\n`;
      if (pending.length >= FRAME_TARGET) {
        yield pending;
        pending = "";
      }
    }
    counted(rows.length);
    if (rows.length < FETCH_ROWS) break;
  }
  if (pending) yield pending;
  await sql.raw("close backup_rows").execute(trx);
}

async function stillNamed(db: Kysely<Database>, key: string): Promise<boolean> {
  const { rows } =
    await sql`select 1 from documents where storage_key = ${key} union all select 1 from site_media where storage_key = ${key}`.execute(db);
  return rows.length > 0;
}

/**
 * The archive contents of the whole firm: the manifest, every table's rows, the sequences, then
 * every stored object the rows name (documents and site media), then the end record with counts.
 * On the embedded database the transaction holds its one connection while the rows are read, so
 * requests wait for that part (not for the objects).
 */
export async function* dumpFirm(
  db: Kysely<Database>,
  storage: ObjectStorage,
  opts: { database: "postgres" | "embedded"; now?: () => Date; onSummary?: (summary: DumpSummary) => void },
): AsyncGenerator<Buffer> {
  const counts: Record<string, number> = {};
  const keys: string[] = [];
  const trx = await db.startTransaction().setIsolationLevel("repeatable read").setAccessMode("read only").execute();
  try {
    await setPortableOutput(trx);
    const tables = await listTables(trx);
    const manifest: Manifest = {
      version: ARCHIVE_CONTENTS_VERSION,
      created_at: (opts.now?.() ?? new Date()).toISOString(),
      database: opts.database,
      migrations: await appliedMigrations(trx),
      tables,
    };
    yield* record(RecordType.manifest, "manifest", JSON.stringify(manifest));
    for (const table of tables) {
      counts[table.name] = 0;
      yield* record(
        RecordType.table,
        table.name,
        tableLines(trx, table, (n) => (counts[table.name]! += n)),
      );
    }
    const { rows: sequences } = await sql<{ name: string; last_value: string | null }>`
      select sequencename as name, last_value::text as last_value from pg_sequences where schemaname = 'public' order by sequencename`.execute(trx);
    yield* record(RecordType.sequences, "sequences", JSON.stringify(sequences));
    const { rows: named } = await sql<{ storage_key: string }>`
      select storage_key from documents union select storage_key from site_media order by storage_key`.execute(trx);
    for (const row of named) keys.push(row.storage_key);
    await trx.commit().execute();
  } finally {
    // A failure, or a consumer that stopped early (return()), lands here with the transaction open.
    if (!trx.isCommitted) await trx.rollback().execute();
  }
  const missing: string[] = [];
  let bytes = 0;
  let objects = 0;
  for (const key of keys) {
    let stream: AsyncIterable<Buffer>;
    try {
      stream = await storage.get(key);
    } catch (err) {
      if (!(err instanceof ObjectNotFoundError)) throw err;
      // Deleted since the snapshot, with its row: the race the archive records. A row that is
      // still there means the storage is not the app's (another DATA_DIR or bucket) or lost it.
      if (await stillNamed(db, key))
        throw new Error(
          `The stored object ${key} of a document is not in the storage: run the backup with the app's DATA_DIR and S3_* settings (or the object was lost: restore it from the bucket's versions or an earlier backup)`,
          { cause: err },
        );
      missing.push(key);
      continue;
    }
    const counting = async function* () {
      for await (const part of stream) {
        bytes += part.length;
        yield part;
      }
    };
    yield* record(RecordType.object, key, counting());
    objects += 1;
  }
  const end: EndRecord = { tables: counts, objects, object_bytes: bytes, missing_objects: missing };
  opts.onSummary?.(end);
  yield* record(RecordType.end, "end", JSON.stringify(end));
}
