// Encryption at rest in front of whichever storage holds the objects (docs/security.md, "Documents
// encrypted at rest"): put() stores a new random data key, wrapped by the master key, in
// stored_object_keys, then the object as object-encryption.ts seals it; get() opens it again,
// ranges included (only the chunks that hold the range are read), through the backend's reader
// where it has one (a local file: no new buffer per read) and its stream otherwise (S3). An object
// without a key row was stored before encryption and is passed through as it is
// (jobs/encrypt-stored-objects.ts encrypts those). get() settles once the first chunk has
// verified, so an object tampered with at its start is refused before any answer begins; a later
// chunk that fails ends the stream with an error.
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import type { Kysely } from "kysely";
import type { Database } from "../db/types.ts";
import {
  decryptObject,
  decryptRange,
  decryptStream,
  encryptStream,
  HEADER_SIZE,
  type MasterKey,
  ObjectIntegrityError,
  parseHeader,
  sealedRange,
  unwrapKey,
  wrapKey,
} from "./object-encryption.ts";
import { type ByteRange, type ObjectStorage, type StoredObject } from "./storage.ts";

export type MasterKeys = {
  /** Wraps every new data key. */
  current: MasterKey;
  /** Keys a rotation is moving away from: still opened, never used to wrap. */
  previous: MasterKey[];
};

export class EncryptedStorage implements ObjectStorage {
  constructor(
    readonly backend: ObjectStorage,
    readonly db: Kysely<Database>,
    readonly keys: MasterKeys,
  ) {}

  async put(key: string, body: Readable): Promise<void> {
    // The body may fail while the key row is written, before anything reads it: its error is kept
    // (never an uncaught 'error' event) and fails the stored stream, so no object is completed.
    let bodyError: unknown = null;
    body.on("error", (err) => {
      bodyError ??= err;
    });
    const checked = async function* (): AsyncGenerator<Buffer> {
      for await (const part of body) yield part as Buffer;
      if (bodyError) throw bodyError;
    };
    const dataKey = randomBytes(32);
    await this.db
      .insertInto("stored_object_keys")
      .values({ storage_key: key, wrapped_key: wrapKey(this.keys.current, key, dataKey), master_key_id: this.keys.current.id })
      .execute();
    const sealed = Readable.from(encryptStream(checked(), dataKey), { objectMode: false });
    // The backend destroys what it is handed when it fails; the caller's stream must stop too.
    sealed.once("close", () => {
      if (!body.readableEnded) body.destroy();
    });
    try {
      await this.backend.put(key, sealed);
    } catch (err) {
      body.destroy();
      await this.db
        .deleteFrom("stored_object_keys")
        .where("storage_key", "=", key)
        .execute()
        .catch(() => undefined);
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const dataKey = await this.dataKeyOf(key);
    if (!dataKey) return this.backend.get(key, range);
    let plain: AsyncGenerator<Buffer>;
    if (this.backend.openReader) {
      const reader = await this.backend.openReader(key);
      plain = (async function* () {
        try {
          yield* decryptObject(key, reader, dataKey, range);
        } finally {
          await reader.close();
        }
      })();
    } else if (!range) {
      plain = decryptStream(key, await this.backend.get(key), dataKey);
    } else {
      const header = parseHeader(key, await readAll(await this.backend.get(key, { start: 0, end: HEADER_SIZE - 1 })));
      const sealed = sealedRange(header.chunkSize, range.start, range.end);
      plain = decryptRange(key, await this.backend.get(key, { start: sealed.start, end: sealed.end }), dataKey, header, range);
    }
    // The first verified chunk before the stream is handed out: a bad start is refused here.
    const first = await plain.next();
    const out = Readable.from(
      (async function* () {
        if (!first.done) yield first.value;
        yield* plain;
      })(),
      { objectMode: false },
    );
    // Destroyed before it was read: the backend's stream closes all the same.
    out.once("close", () => void plain.return(undefined));
    return out;
  }

  async delete(key: string): Promise<void> {
    await this.backend.delete(key);
    await this.db.deleteFrom("stored_object_keys").where("storage_key", "=", key).execute();
  }

  list(): AsyncIterable<StoredObject> {
    return this.backend.list();
  }

  check(): Promise<void> {
    return this.backend.check();
  }

  /**
   * The same storage with its key rows read and written in `db`, a caller's open transaction: the
   * embedded database has one connection, so a key row queried beside an open transaction waits
   * for it, and the transaction waits for the object (a sealed PDF stored in the last signature's
   * transaction hung so). On Postgres it also makes the key row commit with the caller's rows.
   */
  within(db: Kysely<Database>): EncryptedStorage {
    return new EncryptedStorage(this.backend, db, this.keys);
  }

  /** The object's data key; null for an object stored before encryption (no key row). */
  async dataKeyOf(key: string): Promise<Buffer | null> {
    const row = await this.db
      .selectFrom("stored_object_keys")
      .select(["wrapped_key", "master_key_id"])
      .where("storage_key", "=", key)
      .executeTakeFirst();
    if (!row) return null;
    const master = [this.keys.current, ...this.keys.previous].find((k) => k.id === row.master_key_id);
    if (!master) throw new ObjectIntegrityError(key, `its data key is wrapped by master key ${row.master_key_id}, which is not configured`);
    return unwrapKey(master, key, row.wrapped_key);
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** `storage` reading and writing its own rows in the transaction `db` (EncryptedStorage.within); any other storage as it is. */
export function storageWithin(storage: ObjectStorage, db: Kysely<Database>): ObjectStorage {
  return storage instanceof EncryptedStorage ? storage.within(db) : storage;
}
