// The backup archive (docs/safeguards.md, "Backup and restore"). Two layers:
//
// The file:  "PORTAL-BACKUP\n" (14 bytes), a u16 big-endian length and that many bytes of JSON
//            { format, archive_id, key_id, wrapped_key }, then the contents sealed as a stored
//            object is (object-encryption.ts: AES-256-GCM chunks of 1 MiB, each bound to its index
//            and a final-chunk flag, so a changed, moved or missing chunk and a cut end are refused)
//            under a random data key, which BACKUP_ENCRYPTION_KEY wraps bound to the archive id.
// Contents:  records, each a type byte, a u16 length and the record's name (UTF-8), then its body
//            as frames (u32 length, bytes), ended by an empty frame. The records are written as
//            they are read, so neither side knows or holds a whole body. A valid archive's last
//            record is the end record.
import { randomBytes, randomUUID } from "node:crypto";
import { decryptStream, encryptStream, type MasterKey, ObjectIntegrityError, unwrapKey, wrapKey } from "../storage/object-encryption.ts";

const FILE_MAGIC = Buffer.from("PORTAL-BACKUP\n");
const FILE_FORMAT = 1;
const ARCHIVE_CHUNK = 1024 * 1024;
/** A frame holds at most this: the reader's memory per record stays bounded. */
export const MAX_FRAME = 1024 * 1024;

export const RecordType = {
  manifest: 0x4d, // "M": JSON, what the archive holds and the schema it was taken at
  table: 0x54, // "T": one table's rows, a JSON array of column texts per line
  sequences: 0x51, // "Q": JSON, every sequence's last value
  object: 0x4f, // "O": a stored object's bytes as the storage holds them
  end: 0x5a, // "Z": JSON, counts; only a complete archive has it
} as const;

export type ArchiveRecord = { type: number; name: string; body: AsyncGenerator<Buffer> };

export class BackupArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupArchiveError";
  }
}

// ---- Records -------------------------------------------------------------------------------------

export function recordHeader(type: number, name: string): Buffer {
  const nameBytes = Buffer.from(name);
  const header = Buffer.alloc(3 + nameBytes.length);
  header[0] = type;
  header.writeUInt16BE(nameBytes.length, 1);
  nameBytes.copy(header, 3);
  return header;
}

/** The frames of a body, each at most MAX_FRAME, then the empty frame that ends it. */
export async function* framed(body: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  for await (const part of body) {
    const bytes = typeof part === "string" ? Buffer.from(part) : part;
    for (let at = 0; at < bytes.length; at += MAX_FRAME) {
      const piece = bytes.subarray(at, at + MAX_FRAME);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(piece.length);
      yield length;
      yield piece;
    }
  }
  yield Buffer.alloc(4);
}

export async function* record(type: number, name: string, body: AsyncIterable<Buffer | string> | Buffer | string): AsyncGenerator<Buffer> {
  yield recordHeader(type, name);
  yield* framed(typeof body === "string" || Buffer.isBuffer(body) ? one(body) : body);
}

async function* one(value: Buffer | string): AsyncGenerator<Buffer | string> {
  if (value.length > 0) yield value;
}

/** Bytes from a stream, read in exact amounts. */
class Reader {
  private parts: Buffer[] = [];
  private length = 0;
  private done = false;
  constructor(private readonly source: AsyncIterator<Buffer>) {}

  /** Exactly n bytes, or null when the stream ended before the first of them. */
  async read(n: number): Promise<Buffer | null> {
    while (this.length < n && !this.done) {
      const next = await this.source.next();
      if (next.done) this.done = true;
      else if (next.value.length > 0) {
        this.parts.push(next.value);
        this.length += next.value.length;
      }
    }
    if (this.length === 0 && n > 0) return null;
    if (this.length < n) throw new BackupArchiveError("The backup archive is truncated");
    const all = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    const taken = all.subarray(0, n);
    const rest = all.subarray(n);
    this.parts = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
    return taken;
  }

  /** What is left: the bytes already read ahead, then the rest of the stream as it comes. */
  async *rest(): AsyncGenerator<Buffer> {
    const buffered = this.parts;
    this.parts = [];
    this.length = 0;
    yield* buffered;
    if (this.done) return;
    for (;;) {
      const next = await this.source.next();
      if (next.done) return;
      yield next.value;
    }
  }

  async exact(n: number): Promise<Buffer> {
    const bytes = await this.read(n);
    if (!bytes) throw new BackupArchiveError("The backup archive is truncated");
    return bytes;
  }
}

/**
 * The records of the contents, in order. Each record's body must be read to its end (or returned)
 * before the next record is asked for. Ends after the end record; contents without one are refused.
 */
export async function* readRecords(source: AsyncIterable<Buffer>): AsyncGenerator<ArchiveRecord> {
  const reader = new Reader(source[Symbol.asyncIterator]());
  for (;;) {
    const head = await reader.read(3);
    if (!head) throw new BackupArchiveError("The backup archive is incomplete: it has no end record (the backup did not finish)");
    const type = head[0]!;
    if (!Object.values(RecordType).includes(type as never)) throw new BackupArchiveError(`The backup archive holds an unknown record type ${type}`);
    const name = (await reader.exact(head.readUInt16BE(1))).toString();
    let finished = false;
    const body = async function* (): AsyncGenerator<Buffer> {
      for (;;) {
        const length = (await reader.exact(4)).readUInt32BE(0);
        if (length === 0) break;
        if (length > MAX_FRAME) throw new BackupArchiveError("The backup archive holds a frame larger than any backup writes");
        yield await reader.exact(length);
      }
      finished = true;
    };
    const item = { type, name, body: body() };
    yield item;
    if (!finished) for await (const _ of item.body);
    if (type === RecordType.end) {
      if (await reader.read(1)) throw new BackupArchiveError("The backup archive holds data after its end record");
      return;
    }
  }
}

/** The contents as they come, re-framed as read: a cut or malformed stream fails here, never reaches the file as complete. */
export async function* checkedContents(source: AsyncIterable<Buffer>, onEnd?: (end: unknown) => void): AsyncGenerator<Buffer> {
  for await (const item of readRecords(source)) {
    if (item.type !== RecordType.end) {
      yield* record(item.type, item.name, item.body);
      continue;
    }
    const end = await readBody(item.body);
    onEnd?.(JSON.parse(end.toString()));
    yield* record(item.type, item.name, end);
  }
}

export async function readBody(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
}

// ---- Encryption ----------------------------------------------------------------------------------

type FileHeader = { format: number; archive_id: string; key_id: string; wrapped_key: string };

/** The archive file's bytes: its header, then the contents sealed under a new data key. */
export async function* sealArchive(contents: AsyncIterable<Buffer>, backupKey: MasterKey): AsyncGenerator<Buffer> {
  const archiveId = randomUUID();
  const dataKey = randomBytes(32);
  const header: FileHeader = {
    format: FILE_FORMAT,
    archive_id: archiveId,
    key_id: backupKey.id,
    wrapped_key: wrapKey(backupKey, `backup:${archiveId}`, dataKey).toString("base64"),
  };
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(2);
  length.writeUInt16BE(json.length);
  yield Buffer.concat([FILE_MAGIC, length, json]);
  yield* encryptStream(contents, dataKey, ARCHIVE_CHUNK);
}

/** The contents of an archive file, each chunk only once it verified. */
export async function* openArchive(file: AsyncIterable<Buffer>, backupKey: MasterKey): AsyncGenerator<Buffer> {
  const reader = new Reader(file[Symbol.asyncIterator]());
  const magic = await reader.read(FILE_MAGIC.length);
  if (!magic || !magic.equals(FILE_MAGIC)) throw new BackupArchiveError("This file is not a backup archive of the portal");
  const header = parseFileHeader((await reader.exact((await reader.exact(2)).readUInt16BE(0))).toString());
  if (header.key_id !== backupKey.id)
    throw new BackupArchiveError(
      `The backup archive was encrypted with another BACKUP_ENCRYPTION_KEY (key id ${header.key_id}; the configured key's id is ${backupKey.id})`,
    );
  let dataKey: Buffer;
  try {
    dataKey = unwrapKey(backupKey, `backup:${header.archive_id}`, Buffer.from(header.wrapped_key, "base64"));
  } catch {
    throw new BackupArchiveError("The backup archive's header was altered: its key does not open with BACKUP_ENCRYPTION_KEY");
  }
  try {
    yield* decryptStream("backup", reader.rest(), dataKey);
  } catch (err) {
    if (err instanceof ObjectIntegrityError)
      throw new BackupArchiveError(
        `The backup archive was altered or truncated: ${err.message.replace(/^Stored object backup is unreadable: /, "").replace("the object", "the archive")}`,
      );
    throw err;
  }
}

function parseFileHeader(text: string): FileHeader {
  let header: Partial<FileHeader>;
  try {
    header = JSON.parse(text) as Partial<FileHeader>;
  } catch {
    throw new BackupArchiveError("The backup archive's header is damaged");
  }
  if (header.format !== FILE_FORMAT)
    throw new BackupArchiveError(`The backup archive has format ${header.format}; this version reads ${FILE_FORMAT}`);
  if (typeof header.archive_id !== "string" || typeof header.key_id !== "string" || typeof header.wrapped_key !== "string")
    throw new BackupArchiveError("The backup archive's header is damaged");
  return header as FileHeader;
}
