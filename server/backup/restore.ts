// Brings archive contents (dump.ts) back into an empty database and an empty storage
// (docs/safeguards.md, "Backup and restore"). The database is migrated to the archive's migration, its rows
// are inserted in one transaction, and the migrations after it run last, so an archive of an
// older version restores into newer code. Inside the transaction the tables' own triggers are off
// (row counts and the trail's guard would otherwise count or refuse the rows again; none of these
// need the app's superuser) and the foreign keys are dropped and added back at the end, which
// checks every row against them however the tables refer to each other. The stored objects are
// written while the transaction is still open: the rows commit only once the whole archive has
// been read and verified, and on any failure the objects written so far are removed again.
import { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { type Kysely, Migrator, sql, type Transaction } from "kysely";
import type { Logger } from "pino";
import { migrations } from "../../migrations/index.ts";
import { migrateToLatest } from "../db/database.ts";
import type { Database } from "../db/types.ts";
import { assertValidKey, type ObjectStorage } from "../storage/storage.ts";
import { type ArchiveRecord, readBody, readRecords, RecordType } from "./archive.ts";
import {
  appliedMigrations,
  ARCHIVE_CONTENTS_VERSION,
  type EndRecord,
  listTables,
  type Manifest,
  quoteIdent,
  setPortableOutput,
  type TableManifest,
} from "./dump.ts";

/**
 * Tables whose rows the migrations themselves insert (settings, counters): replaced by the archive's.
 * A migration that seeds another table must add it here; test/server/backup.test.ts, which restores
 * into a freshly migrated database, fails until it does.
 */
export const SEEDED_BY_MIGRATIONS = ["availability_ranges", "booking_settings", "firm_settings", "row_counts", "site_content_version"];

const INSERT_ROWS = 500;
const INSERT_BYTES = 4 * 1024 * 1024;

/** The archive cannot go into this database or storage; nothing was changed. */
export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RestoreRefusedError";
  }
}

export async function restoreFirm(
  db: Kysely<Database>,
  storage: ObjectStorage,
  contents: AsyncIterable<Buffer>,
  logger: Logger,
): Promise<EndRecord & { migrations: string[] }> {
  const records = readRecords(contents);
  const first = await records.next();
  if (first.done || first.value.type !== RecordType.manifest) throw new RestoreRefusedError("The backup archive does not begin with its manifest");
  const manifest = JSON.parse((await readBody(first.value.body)).toString()) as Manifest;
  if (manifest.version !== ARCHIVE_CONTENTS_VERSION)
    throw new RestoreRefusedError(`The backup archive's contents have version ${manifest.version}; this version reads ${ARCHIVE_CONTENTS_VERSION}`);
  // Before any migration runs: a database with data is left exactly as it was.
  await refuseIfData(db);
  await migrateToArchive(db, manifest.migrations);

  const stored: string[] = [];
  const trx = await db.startTransaction().execute();
  try {
    await setPortableOutput(trx);
    await checkTarget(trx, manifest.tables);
    for await (const _ of storage.list())
      throw new RestoreRefusedError("The storage already holds objects: restore into an empty storage (an empty documents folder or bucket)");
    const foreignKeys = await sql<{ table: string; name: string; definition: string }>`
      select conrelid::regclass::text as "table", conname as "name", pg_get_constraintdef(oid) as "definition"
      from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`.execute(trx);
    for (const fk of foreignKeys.rows) await sql.raw(`alter table ${fk.table} drop constraint ${quoteIdent(fk.name)}`).execute(trx);
    for (const table of manifest.tables) await sql.raw(`alter table ${quoteIdent(table.name)} disable trigger user`).execute(trx);
    for (const table of SEEDED_BY_MIGRATIONS) await sql.raw(`delete from ${quoteIdent(table)}`).execute(trx);

    const tables = new Map(manifest.tables.map((t) => [t.name, t]));
    const inserted: Record<string, number> = {};
    let end: EndRecord | null = null;
    for await (const item of records) {
      if (item.type === RecordType.table) {
        const table = tables.get(item.name);
        if (!table) throw new RestoreRefusedError(`The backup archive holds rows of ${item.name}, which its manifest does not name`);
        inserted[table.name] = await insertRows(trx, table, item);
      } else if (item.type === RecordType.sequences) {
        const sequences = JSON.parse((await readBody(item.body)).toString()) as { name: string; last_value: string | null }[];
        for (const seq of sequences) {
          if (seq.last_value === null) continue;
          await sql`select setval(${`public.${quoteIdent(seq.name)}`}::regclass, ${seq.last_value}::bigint, true)`.execute(trx);
        }
      } else if (item.type === RecordType.object) {
        assertValidKey(item.name);
        stored.push(item.name);
        await storage.put(item.name, Readable.from(item.body, { objectMode: false }));
      } else if (item.type === RecordType.end) {
        end = JSON.parse((await readBody(item.body)).toString()) as EndRecord;
      } else {
        throw new RestoreRefusedError(`The backup archive holds a second manifest`);
      }
    }
    if (!end) throw new RestoreRefusedError("The backup archive has no end record");
    for (const [name, count] of Object.entries(end.tables)) {
      if ((inserted[name] ?? 0) !== count)
        throw new RestoreRefusedError(`The backup archive's table ${name} should hold ${count} rows; it held ${inserted[name] ?? 0}`);
    }
    for (const table of manifest.tables) await sql.raw(`alter table ${quoteIdent(table.name)} enable trigger user`).execute(trx);
    for (const fk of foreignKeys.rows) await sql.raw(`alter table ${fk.table} add constraint ${quoteIdent(fk.name)} ${fk.definition}`).execute(trx);
    await trx.commit().execute();
    if (end.missing_objects.length > 0)
      logger.warn(
        { storage_keys: end.missing_objects },
        "objects deleted while the backup was taken are not in it: their rows are restored without content",
      );
    await migrateToLatest(db, logger);
    return { ...end, migrations: manifest.migrations };
  } catch (err) {
    if (!trx.isCommitted) {
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
      for (const key of stored) await storage.delete(key).catch(() => undefined);
    }
    throw err;
  }
}

/** The database as the archive's migrations left it: none applied yet, or the same ones. */
async function migrateToArchive(db: Kysely<Database>, archived: string[]): Promise<void> {
  const known = Object.keys(migrations).sort();
  const unknown = archived.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new RestoreRefusedError(
      `The backup archive was made by a newer version of the portal (migration ${unknown[0]}): restore it with that version or later`,
    );
  const { rows } = await sql<{ found: string | null }>`select to_regclass('public.kysely_migration')::text as found`.execute(db);
  const applied = rows[0]?.found ? await appliedMigrations(db) : [];
  if (applied.some((name, i) => archived[i] !== name))
    throw new RestoreRefusedError(
      "The database is migrated past the backup archive's version: restore into a new, empty database (restore creates the tables itself)",
    );
  const last = archived.at(-1);
  if (!last || applied.length === archived.length) return;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo(last);
  if (error) throw error;
}

/** The database must have no data (a database with no tables yet has none), and its tables the archive's columns. */
async function checkTarget(trx: Transaction<Database>, archived: TableManifest[]): Promise<void> {
  const current = await refuseIfData(trx);
  const shape = (tables: TableManifest[]) => JSON.stringify([...tables].sort((a, b) => a.name.localeCompare(b.name)));
  if (shape(current) !== shape(archived))
    throw new RestoreRefusedError("The database's tables differ from those of the backup archive at its migration: it was changed by hand");
}

async function refuseIfData(db: Kysely<Database> | Transaction<Database>): Promise<TableManifest[]> {
  const current = await listTables(db);
  const withRows: string[] = [];
  for (const table of current) {
    if (SEEDED_BY_MIGRATIONS.includes(table.name)) continue;
    const { rows } = await sql.raw<{ found: boolean }>(`select exists (select from ${quoteIdent(table.name)}) as found`).execute(db);
    if (rows[0]?.found) withRows.push(table.name);
  }
  if (withRows.length > 0)
    throw new RestoreRefusedError(
      `The database already has data (in ${withRows.slice(0, 5).join(", ")}${withRows.length > 5 ? ", ..." : ""}): restore only into an empty database`,
    );
  return current;
}

/** Inserts a table record's JSON lines in batches; answers how many rows. */
async function insertRows(trx: Transaction<Database>, table: TableManifest, item: ArchiveRecord): Promise<number> {
  const columns = table.columns.map((c) => quoteIdent(c.name)).join(", ");
  const values = table.columns.map((c, i) => `(r->>${i})::${c.type}`).join(", ");
  const head = sql.raw(`insert into ${quoteIdent(table.name)} (${columns}) overriding system value select ${values} from json_array_elements(`);
  let batch: string[] = [];
  let batchBytes = 0;
  let count = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await sql`${head}${`[${batch.join(",")}]`}::text::json) as r`.execute(trx);
    count += batch.length;
    batch = [];
    batchBytes = 0;
  };
  // A frame may end inside a line, and inside a character.
  const decoder = new StringDecoder("utf8");
  let partial = "";
  for await (const frame of item.body) {
    const lines = (partial + decoder.write(frame)).split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      batch.push(line);
      batchBytes += line.length;
      if (batch.length >= INSERT_ROWS || batchBytes >= INSERT_BYTES) await flush();
    }
  }
  if (partial) throw new RestoreRefusedError(`The backup archive's rows of ${table.name} end in the middle of a row`);
  await flush();
  return count;
}
