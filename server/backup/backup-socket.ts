// The embedded database allows one process, the app's: `npm run backup` cannot open it while the
// app runs. So the app, on the embedded database, answers on a Unix socket in DATA_DIR (mode 0600:
// only the account that owns the data, which can read the database files anyway, may connect) with
// the archive contents (dump.ts) from its own connection; the command encrypts them into the file.
// The command asks with one line, "backup"; a connection that only looks whether the app runs
// (npm run restore) sends nothing and starts nothing.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Database } from "../db/types.ts";
import type { ObjectStorage } from "../storage/storage.ts";
import { dumpFirm } from "./dump.ts";

const BACKUP_REQUEST = "backup\n";

export function backupSocketPath(dataDir: string): string {
  return path.join(dataDir, "backup.sock");
}

export async function serveBackups(opts: {
  dataDir: string;
  db: Kysely<Database>;
  storage: ObjectStorage;
  logger: Logger;
  now: () => Date;
}): Promise<() => Promise<void>> {
  const socketPath = backupSocketPath(opts.dataDir);
  // One process owns an embedded database's DATA_DIR: a socket file left there is a dead one's.
  fs.rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => {
    socket.on("error", () => undefined);
    let asked = "";
    const onData = (part: Buffer) => {
      asked += part.toString("latin1");
      if (asked.length < BACKUP_REQUEST.length) return;
      socket.off("data", onData);
      if (asked === BACKUP_REQUEST) send(socket);
      else socket.destroy();
    };
    socket.on("data", onData);
  });
  const send = (socket: net.Socket) => {
    opts.logger.info("backup started: the database is read on the backup socket");
    const contents = dumpFirm(opts.db, opts.storage, {
      database: "embedded",
      now: opts.now,
      onSummary: (summary) => opts.logger.info({ objects: summary.objects, missing_objects: summary.missing_objects.length }, "backup contents sent"),
    });
    // A command that went away has its own failure to report; the app notes it.
    pipeline(Readable.from(contents, { objectMode: false }), socket).catch((err: unknown) =>
      opts.logger.warn({ err: err instanceof Error ? err.message : err }, "backup on the backup socket did not finish"),
    );
  };
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
    });
}

/** The archive contents from the app running on this DATA_DIR's embedded database. */
export function requestBackup(socket: net.Socket): AsyncIterable<Buffer> {
  socket.write(BACKUP_REQUEST);
  return socket;
}

/** A connection to the app running on this DATA_DIR's embedded database, or null when none runs. */
export function connectToRunningApp(dataDir: string): Promise<net.Socket | null> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(backupSocketPath(dataDir));
    socket.once("connect", () => {
      socket.removeAllListeners("error");
      resolve(socket);
    });
    socket.once("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT" || err.code === "ECONNREFUSED") resolve(null);
      else reject(err);
    });
  });
}
