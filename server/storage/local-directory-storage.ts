// Objects as files under one directory: `<root>/<first two key characters>/<key>`, written to
// `<root>/tmp/` first, fsynced, then renamed into place, so a reader or a crash never sees half an
// object. The directory belongs to one server process (several servers share an S3 bucket instead),
// which is why everything left in `tmp/` at start is an orphan of a previous run.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  assertValidKey,
  type ByteRange,
  isValidKey,
  ObjectNotFoundError,
  type ObjectReader,
  type ObjectStorage,
  type StoredObject,
} from "./storage.ts";

export class LocalDirectoryStorage implements ObjectStorage {
  readonly tmpDir: string;

  constructor(readonly root: string) {
    this.tmpDir = path.join(root, "tmp");
    fs.mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
    for (const name of fs.readdirSync(this.tmpDir)) fs.rmSync(path.join(this.tmpDir, name), { force: true, recursive: true });
  }

  private pathOf(key: string): string {
    assertValidKey(key);
    return path.join(this.root, key.slice(0, 2), key);
  }

  async put(key: string, body: Readable): Promise<void> {
    const target = this.pathOf(key);
    const tmp = path.join(this.tmpDir, `${randomBytes(12).toString("hex")}.tmp`);
    try {
      // `flush` fsyncs the file before it is closed: the content is on disk before it gets its name.
      await pipeline(body, fs.createWriteStream(tmp, { flags: "wx", mode: 0o600, flush: true }));
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await fsp.rename(tmp, target);
    } catch (err) {
      body.destroy();
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    await syncDirectory(path.dirname(target));
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const file = await this.open(key);
    return file.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async openReader(key: string): Promise<ObjectReader> {
    const file = await this.open(key);
    let size: number;
    try {
      ({ size } = await file.stat());
    } catch (err) {
      await file.close();
      throw err;
    }
    return {
      size,
      read: async (into, length, position) => {
        let got = 0;
        while (got < length) {
          const { bytesRead } = await file.read(into, got, length - got, position + got);
          if (bytesRead === 0) break;
          got += bytesRead;
        }
        return got;
      },
      close: () => file.close(),
    };
  }

  private async open(key: string): Promise<fsp.FileHandle> {
    try {
      return await fsp.open(this.pathOf(key), "r");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new ObjectNotFoundError(key);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async *list(): AsyncIterable<StoredObject> {
    for (const shard of await fsp.readdir(this.root, { withFileTypes: true })) {
      if (!shard.isDirectory() || shard.name === "tmp") continue;
      for (const key of await fsp.readdir(path.join(this.root, shard.name))) {
        if (!isValidKey(key) || key.slice(0, 2) !== shard.name) continue;
        try {
          const { mtime } = await fsp.stat(path.join(this.root, shard.name, key));
          yield { key, lastModified: mtime };
        } catch (err) {
          // Deleted between the listing and the stat: nothing to report.
          if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
        }
      }
    }
  }

  async check(): Promise<void> {
    await fsp.access(this.tmpDir, fs.constants.R_OK | fs.constants.W_OK);
  }
}

/** Makes a rename durable: the new directory entry survives a power cut. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
