// What `npm run backup` and `npm run restore` do (scripts/backup.ts, scripts/restore.ts), as
// functions the round-trip test calls with its own configuration.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Kysely, sql } from "kysely";
import type { Logger } from "pino";
import { type Config, parseKey } from "../config.ts";
import { openDatabase } from "../db/database.ts";
import type { Database } from "../db/types.ts";
import { createBackendStorage } from "../storage/create-storage.ts";
import { masterKey, type MasterKey } from "../storage/object-encryption.ts";
import { checkedContents, openArchive, sealArchive } from "./archive.ts";
import { connectToRunningApp, requestBackup } from "./backup-socket.ts";
import { dumpFirm, type EndRecord } from "./dump.ts";
import { restoreFirm, RestoreRefusedError } from "./restore.ts";

export function backupKey(config: Config): MasterKey {
  if (!config.backupEncryptionKey)
    throw new Error("BACKUP_ENCRYPTION_KEY is not set: it encrypts the archive (32 bytes as base64 or hex: openssl rand -base64 32)");
  const id = createHash("sha256").update("client-portal backup key\0").update(config.backupEncryptionKey).digest("hex").slice(0, 16);
  return { id, key: config.backupEncryptionKey };
}

/**
 * Writes the archive to `out` (mode 0600) through `out.partial`, renamed only once complete, so a
 * file at `out` is always a whole archive. On the embedded database, a running app makes the
 * contents (backup-socket.ts); without one, the database is opened here.
 */
export async function backupToFile(config: Config, out: string, logger: Logger): Promise<EndRecord> {
  const key = backupKey(config);
  const partial = `${out}.partial`;
  let summary: EndRecord | null = null;
  const onSummary = (end: unknown) => {
    summary = end as EndRecord;
  };
  const write = (contents: AsyncIterable<Buffer>) =>
    pipeline(Readable.from(sealArchive(contents, key), { objectMode: false }), fs.createWriteStream(partial, { mode: 0o600 }));
  try {
    const app = config.databaseUrl ? null : await connectToRunningApp(config.dataDir);
    if (app) {
      logger.info("the app is running on the embedded database: it reads the database for the backup");
      await write(checkedContents(requestBackup(app), onSummary));
    } else {
      // Opening it would make a new, empty one: an archive of nothing, from a mistyped DATA_DIR.
      if (!config.databaseUrl && !fs.existsSync(path.join(config.dataDir, "pgdata")))
        throw new Error(`No embedded database under ${config.dataDir}: set DATA_DIR (or DATABASE_URL) as the app has it`);
      const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
      try {
        await write(dumpFirm(database.db, createBackendStorage(config), { database: database.kind, onSummary }));
      } finally {
        await database.close();
      }
    }
    fs.renameSync(partial, out);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
  if (!summary) throw new Error("the backup ended without its end record");
  return summary;
}

/** Restores the archive at `file` into the configured database and storage, which must be empty. */
export async function restoreFromFile(config: Config, file: string, logger: Logger): Promise<EndRecord & { migrations: string[] }> {
  const key = backupKey(config);
  if (!fs.existsSync(file)) throw new RestoreRefusedError(`No such file: ${file}`);
  if (!config.databaseUrl) {
    const app = await connectToRunningApp(config.dataDir);
    if (app) {
      app.destroy();
      throw new RestoreRefusedError("The app is running on this DATA_DIR's embedded database: stop it, then restore");
    }
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
  const archive = fs.createReadStream(file);
  try {
    const result = await restoreFirm(database.db, createBackendStorage(config), openArchive(archive, key), logger);
    await warnOfOtherDocumentKey(config, database.db, logger);
    return result;
  } finally {
    // A restore refused early leaves the file half read.
    archive.destroy();
    await database.close();
  }
}

/** The restored documents open only under the master key they were stored with: say so now, not at the first download. */
async function warnOfOtherDocumentKey(config: Config, db: Kysely<Database>, logger: Logger) {
  const configured = [config.documentEncryptionKey, config.documentEncryptionKeyPrevious, keyFile(config)]
    .filter((k): k is Buffer => k !== null)
    .map((k) => masterKey(k).id);
  const { rows } = await sql<{ master_key_id: string }>`select distinct master_key_id from stored_object_keys`.execute(db);
  const others = rows.map((r) => r.master_key_id).filter((id) => !configured.includes(id));
  if (others.length > 0)
    logger.error(
      { master_key_ids: others },
      "restored documents are encrypted under a DOCUMENT_ENCRYPTION_KEY that is not configured here: set the original key before starting the app, or their downloads fail",
    );
}

function keyFile(config: Config): Buffer | null {
  try {
    return parseKey(fs.readFileSync(path.join(config.dataDir, "document-encryption.key"), "utf8").trim());
  } catch {
    return null;
  }
}
