import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { type Config, parseKey } from "../config.ts";
import type { Database } from "../db/types.ts";
import { EncryptedStorage, type MasterKeys } from "./encrypted-storage.ts";
import { LocalDirectoryStorage } from "./local-directory-storage.ts";
import { masterKey } from "./object-encryption.ts";
import type { ByteRange, ObjectStorage, StoredObject } from "./storage.ts";

/** Where the storage keeps its objects, as they are stored (encrypted, or legacy plaintext). */
export function createBackendStorage(config: Config): ObjectStorage {
  const { s3 } = config;
  if (s3)
    return new DeferredStorage(async () => {
      const { createS3Client, S3Storage } = await import("./s3-storage.ts");
      return new S3Storage(createS3Client(s3), s3.bucket);
    });
  return new LocalDirectoryStorage(path.join(config.dataDir, "documents"));
}

/**
 * A storage made at its first use: the S3 SDK takes a second and a half to load, which every start
 * and every test process paid with the local storage too (docs/performance.md, "The test suite's time").
 */
class DeferredStorage implements ObjectStorage {
  private made: Promise<ObjectStorage> | undefined;
  constructor(private readonly make: () => Promise<ObjectStorage>) {}
  private storage() {
    return (this.made ??= this.make());
  }
  async put(key: string, body: Readable) {
    return (await this.storage()).put(key, body);
  }
  async get(key: string, range?: ByteRange) {
    return (await this.storage()).get(key, range);
  }
  async delete(key: string) {
    return (await this.storage()).delete(key);
  }
  async *list(): AsyncIterable<StoredObject> {
    yield* (await this.storage()).list();
  }
  async check() {
    return (await this.storage()).check();
  }
}

/** The app's storage: every object encrypted on its way in and opened on its way out. */
export function createStorage(config: Config, db: Kysely<Database>, logger: Logger): EncryptedStorage {
  return new EncryptedStorage(createBackendStorage(config), db, documentMasterKeys(config, logger));
}

/**
 * DOCUMENT_ENCRYPTION_KEY (and _PREVIOUS during a rotation). Without it, a key of this install's own
 * under DATA_DIR, created on first start (mode 0600), so a fresh clone runs with no setup; several
 * instances sharing a bucket cannot share that file, so production with S3 refuses to start.
 */
export function documentMasterKeys(config: Config, logger: Logger): MasterKeys {
  const previous = config.documentEncryptionKeyPrevious ? [masterKey(config.documentEncryptionKeyPrevious)] : [];
  if (config.documentEncryptionKey) return { current: masterKey(config.documentEncryptionKey), previous };
  if (config.env === "production" && config.s3) {
    throw new Error(
      "Invalid configuration in the environment:\n  DOCUMENT_ENCRYPTION_KEY: must be set when documents are stored in S3 in production (openssl rand -base64 32)",
    );
  }
  const file = path.join(config.dataDir, "document-encryption.key");
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, `${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}\n`, { flag: "wx", mode: 0o600 });
    logger.warn({ file }, "DOCUMENT_ENCRYPTION_KEY is not set: a document encryption key was generated; keep it apart from backups of the data");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const key = parseKey(fs.readFileSync(file, "utf8").trim());
  if (!key) throw new Error(`${file} does not hold a 32-byte key as base64 or hex`);
  if (config.env === "production")
    logger.warn(
      { file },
      "documents are encrypted with the key file under DATA_DIR; set DOCUMENT_ENCRYPTION_KEY to keep the key apart from the data",
    );
  return { current: masterKey(key), previous };
}
