// The format of an encrypted stored object (docs/security.md, "Documents encrypted at rest"):
//
//   header (20 bytes): magic 89 45 4E 43 ("\x89ENC"), version 1, three zero bytes, chunk size
//                      (u32 big-endian, plaintext bytes per chunk), nonce prefix (8 random bytes)
//   chunks:            AES-256-GCM of each CHUNK_SIZE bytes of plaintext (the last one shorter, or
//                      empty for an empty file), each followed by its 16-byte tag
//
// Chunk i's nonce is the prefix and i (u32 big-endian); its additional data is the header, i and a
// final-chunk flag, so a chunk moved, swapped, dropped from the end or taken from another object
// fails its tag. Every object has a random data key of its own, wrapped by the master key in
// stored_object_keys. Plaintext leaves here only once its chunk's tag has verified.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { ByteRange, ObjectReader } from "./storage.ts";

export const MAGIC = Buffer.from([0x89, 0x45, 0x4e, 0x43]);
export const FORMAT_VERSION = 1;
export const HEADER_SIZE = 20;
export const CHUNK_SIZE = 1024 * 1024;
export const TAG_SIZE = 16;
/**
 * A chunk read whole is opened in pieces of this size: Node makes a new buffer for each output, and
 * here 64 KiB outputs ran at 3.6 GB/s where 1 MiB ones ran at 2.3 GB/s (fresh pages each time).
 */
const OUTPUT_SLICE = 64 * 1024;
const MIN_CHUNK = 1024;
const MAX_CHUNK = 16 * 1024 * 1024;

/** A stored object that is not what was stored: tampered with, truncated, or under a key we do not hold. */
export class ObjectIntegrityError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`Stored object ${key} is unreadable: ${reason}`);
    this.name = "ObjectIntegrityError";
  }
}

export type Header = { bytes: Buffer; chunkSize: number; noncePrefix: Buffer };

export function newHeader(chunkSize = CHUNK_SIZE): Header {
  const bytes = Buffer.alloc(HEADER_SIZE);
  MAGIC.copy(bytes, 0);
  bytes[4] = FORMAT_VERSION;
  bytes.writeUInt32BE(chunkSize, 8);
  const noncePrefix = randomBytes(8);
  noncePrefix.copy(bytes, 12);
  return { bytes, chunkSize, noncePrefix };
}

export function parseHeader(key: string, bytes: Buffer): Header {
  if (bytes.length < HEADER_SIZE) throw new ObjectIntegrityError(key, "shorter than its header");
  const header = bytes.subarray(0, HEADER_SIZE);
  if (!header.subarray(0, 4).equals(MAGIC)) throw new ObjectIntegrityError(key, "no encryption header");
  if (header[4] !== FORMAT_VERSION) throw new ObjectIntegrityError(key, `unknown format version ${header[4]}`);
  const chunkSize = header.readUInt32BE(8);
  if (chunkSize < MIN_CHUNK || chunkSize > MAX_CHUNK) throw new ObjectIntegrityError(key, `impossible chunk size ${chunkSize}`);
  return { bytes: Buffer.from(header), chunkSize, noncePrefix: Buffer.from(header.subarray(12, 20)) };
}

function nonceOf(header: Header, index: number): Buffer {
  const nonce = Buffer.alloc(12);
  header.noncePrefix.copy(nonce, 0);
  nonce.writeUInt32BE(index, 8);
  return nonce;
}

function aadOf(header: Header, index: number, final: boolean): Buffer {
  const aad = Buffer.alloc(HEADER_SIZE + 5);
  header.bytes.copy(aad, 0);
  aad.writeUInt32BE(index, HEADER_SIZE);
  aad[HEADER_SIZE + 4] = final ? 1 : 0;
  return aad;
}

/** A chunk sealed piece by piece as it arrived, nothing copied: each piece's ciphertext (GCM keeps lengths), then the tag. */
function sealChunkParts(dataKey: Buffer, header: Header, index: number, final: boolean, plaintext: readonly Buffer[]): Buffer[] {
  const cipher = createCipheriv("aes-256-gcm", dataKey, nonceOf(header, index));
  cipher.setAAD(aadOf(header, index, final));
  const sealed = plaintext.map((piece) => cipher.update(piece));
  cipher.final();
  sealed.push(cipher.getAuthTag());
  return sealed;
}

/**
 * The chunk's plaintext pieces, from its ciphertext's pieces as they were read (nothing copied) and
 * its tag; null when the tag does not verify as chunk `index` with this finality.
 */
function openChunkParts(dataKey: Buffer, header: Header, index: number, final: boolean, body: readonly Buffer[], tag: Buffer): Buffer[] | null {
  const decipher = createDecipheriv("aes-256-gcm", dataKey, nonceOf(header, index));
  decipher.setAAD(aadOf(header, index, final));
  decipher.setAuthTag(tag);
  try {
    // GCM writes all its output in update(); final() only checks the tag.
    const plain = body.map((piece) => decipher.update(piece));
    decipher.final();
    return plain;
  } catch {
    return null;
  }
}

/** Bytes read from a stream, handed out in exact amounts. */
class ByteQueue {
  private parts: Buffer[] = [];
  length = 0;
  push(part: Buffer): void {
    if (part.length === 0) return;
    this.parts.push(part);
    this.length += part.length;
  }
  /** The first n bytes (n <= length) as the pieces they arrived in (the last one cut), nothing copied. */
  takeParts(n: number): Buffer[] {
    const taken: Buffer[] = [];
    let left = n;
    while (left > 0) {
      const part = this.parts[0]!;
      if (part.length <= left) {
        taken.push(part);
        this.parts.shift();
        left -= part.length;
      } else {
        taken.push(part.subarray(0, left));
        this.parts[0] = part.subarray(left);
        left = 0;
      }
    }
    this.length -= n;
    return taken;
  }
  /** The first n bytes (n <= length) in one buffer, copied only when they span several pieces. */
  take(n: number): Buffer {
    const parts = this.takeParts(n);
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, n);
  }
}

/** A sealed chunk's ciphertext pieces and its tag, taken from the front of the queue (`size` bytes in all, at least a tag). */
function takeSealed(queue: ByteQueue, size: number): { body: Buffer[]; tag: Buffer } {
  const body = queue.takeParts(size - TAG_SIZE);
  return { body, tag: queue.take(TAG_SIZE) };
}

/**
 * The ciphertext of a plaintext stream: the header, then each chunk once the next one has begun (or
 * the stream ended), as the ciphertext of each piece it arrived in, then its tag. Nothing is copied
 * into a chunk-sized buffer: the app serving 10 MB uploads spent less CPU this way (5.5-8.0 against
 * 7.4-9.5 ms per MB, docs/performance.md) than with one buffer per chunk, though it writes more.
 * New objects use CHUNK_SIZE; the chunk size an object was written with is in its header, so
 * objects written with an earlier one read as before.
 */
export async function* encryptStream(source: AsyncIterable<Buffer | string>, dataKey: Buffer, chunkSize = CHUNK_SIZE): AsyncGenerator<Buffer> {
  const header = newHeader(chunkSize);
  yield header.bytes;
  const queue = new ByteQueue();
  let index = 0;
  for await (const part of source) {
    queue.push(typeof part === "string" ? Buffer.from(part) : part);
    // Strictly more than a chunk: this one is not the last.
    while (queue.length > chunkSize) yield* sealChunkParts(dataKey, header, index++, false, queue.takeParts(chunkSize));
  }
  yield* sealChunkParts(dataKey, header, index, true, queue.takeParts(queue.length));
}

/**
 * The plaintext of a whole encrypted object read from a stream (S3's, a backup archive's), chunk by
 * chunk, each only after its tag verified. The stream's pieces are copied as they arrive into one
 * buffer of a sealed chunk's size (a kept one, sealedChunkBuffers), so the socket's buffers go at
 * once instead of waiting for the rest of their chunk, and the chunk is opened in 64 KiB pieces as
 * decryptObject does. A full buffer is opened as a chunk that is not the last once one more byte
 * arrives; what the buffer holds when the stream ends is the last chunk.
 */
export async function* decryptStream(key: string, source: AsyncIterable<Buffer>, dataKey: Buffer): AsyncGenerator<Buffer> {
  const start = new ByteQueue();
  let header: Header | null = null;
  let sealed: Buffer | null = null;
  let filled = 0;
  let index = 0;
  const open = (final: boolean): Buffer[] => {
    const plain =
      filled >= TAG_SIZE &&
      openChunkParts(
        dataKey,
        header!,
        index,
        final,
        slices(sealed!.subarray(0, filled - TAG_SIZE), OUTPUT_SLICE),
        sealed!.subarray(filled - TAG_SIZE, filled),
      );
    if (!plain)
      throw new ObjectIntegrityError(
        key,
        final ? `chunk ${index} (the last) fails authentication or the object is truncated` : `chunk ${index} fails authentication`,
      );
    index += 1;
    filled = 0;
    // An empty object's one piece is empty: nothing to hand out.
    return plain.filter((piece) => piece.length > 0);
  };
  try {
    for await (const part of source) {
      let piece = part;
      if (!sealed) {
        start.push(piece);
        if (start.length < HEADER_SIZE) continue;
        header = parseHeader(key, start.take(HEADER_SIZE));
        sealed = sealedChunkBuffers.take(header.chunkSize + TAG_SIZE);
        piece = start.take(start.length);
      }
      while (piece.length > 0) {
        // A full chunk with more bytes after it: not the last.
        if (filled === sealed.length) yield* open(false);
        const copied = piece.copy(sealed, filled);
        filled += copied;
        piece = piece.subarray(copied);
      }
    }
    if (!header) throw new ObjectIntegrityError(key, "shorter than its header");
    yield* open(true);
  } finally {
    // The cipher's outputs are its own and setAuthTag copies the tag: nothing handed out refers to
    // the buffer.
    if (sealed) sealedChunkBuffers.give(sealed);
  }
}

/** Which stored bytes hold plaintext bytes `start` to `end` (inclusive), chunks `first` to `last`. */
export function sealedRange(chunkSize: number, start: number, end: number): { first: number; last: number; start: number; end: number } {
  const first = Math.floor(start / chunkSize);
  const last = Math.floor(end / chunkSize);
  const sealedSize = chunkSize + TAG_SIZE;
  return { first, last, start: HEADER_SIZE + first * sealedSize, end: HEADER_SIZE + (last + 1) * sealedSize - 1 };
}

/**
 * The plaintext bytes `start` to `end` from the stored chunks `first` to `last` (as sealedRange named
 * them). The chunks before `last` are whole and not final; `last` may be the object's final chunk.
 */
export async function* decryptRange(
  key: string,
  source: AsyncIterable<Buffer>,
  dataKey: Buffer,
  header: Header,
  range: { start: number; end: number },
): AsyncGenerator<Buffer> {
  const { first, last } = sealedRange(header.chunkSize, range.start, range.end);
  const sealedSize = header.chunkSize + TAG_SIZE;
  const queue = new ByteQueue();
  let index = first;
  let skip = range.start - first * header.chunkSize;
  let remaining = range.end - range.start + 1;
  /** The wanted part of a verified chunk's pieces. */
  const emit = function* (plain: Buffer[]): Generator<Buffer> {
    for (const part of plain) {
      if (skip >= part.length) {
        skip -= part.length;
        continue;
      }
      const piece = part.subarray(skip, Math.min(part.length, skip + remaining));
      skip = 0;
      remaining -= piece.length;
      if (piece.length > 0) yield piece;
    }
  };
  for await (const part of source) {
    queue.push(part);
    while (index < last && queue.length >= sealedSize) {
      const { body, tag } = takeSealed(queue, sealedSize);
      const plain = openChunkParts(dataKey, header, index, false, body, tag);
      if (!plain) throw new ObjectIntegrityError(key, `chunk ${index} fails authentication`);
      index += 1;
      yield* emit(plain);
    }
  }
  if (index !== last || queue.length < TAG_SIZE) throw new ObjectIntegrityError(key, "truncated");
  const whole = queue.length === sealedSize;
  const { body, tag } = takeSealed(queue, queue.length);
  // A whole chunk may be the final one (a plaintext of a multiple of the chunk size); a short one must be.
  const plain = (whole ? openChunkParts(dataKey, header, index, false, body, tag) : null) ?? openChunkParts(dataKey, header, index, true, body, tag);
  if (!plain) throw new ObjectIntegrityError(key, `chunk ${index} fails authentication or the object is truncated`);
  yield* emit(plain);
  if (remaining > 0) throw new ObjectIntegrityError(key, "truncated");
}

/**
 * Buffers a whole sealed chunk of the usual size (CHUNK_SIZE + TAG_SIZE) is read into, kept between
 * reads. A buffer that outlives a download's first moments is promoted to V8's old generation and,
 * as memory outside the heap, counts toward the next full collection until one frees it: a new pair
 * per download made the app serving 8 downloads at a time run a full collection every few tens of
 * MB (docs/performance.md, "The collector"). Only ciphertext is ever read into them. At most
 * `limit` are kept (16 MiB), enough for 8 transfers at once; past that they are left to the collector.
 */
export class SealedChunkBuffers {
  private free: Buffer[] = [];
  constructor(
    readonly size: number,
    readonly limit: number,
  ) {}
  /**
   * A buffer for a chunk of an object sealed in chunks of `sealedSize` bytes: a kept one when that is
   * the usual size, otherwise (an object written with another chunk size, or none kept) a new one of
   * `length` bytes (decryptObject, which knows the object's size, asks no more than a small object's
   * only chunk needs).
   */
  take(sealedSize: number, length = sealedSize): Buffer {
    return (sealedSize === this.size ? this.free.pop() : undefined) ?? Buffer.allocUnsafeSlow(length);
  }
  /** A buffer no read or reader refers to any more. Ones of another size are not kept. */
  give(buffer: Buffer): void {
    // Given back twice, one buffer would serve two readers at once: fail loudly instead.
    if (this.free.includes(buffer)) throw new Error("A sealed-chunk buffer was given back twice");
    if (buffer.length === this.size && this.free.length < this.limit) this.free.push(buffer);
  }
  get kept(): number {
    return this.free.length;
  }
}

export const sealedChunkBuffers = new SealedChunkBuffers(CHUNK_SIZE + TAG_SIZE, 16);

/** `buffer` cut into pieces of at most `size` bytes (one empty piece for an empty buffer), nothing copied. */
function slices(buffer: Buffer, size: number): Buffer[] {
  const pieces = [buffer.subarray(0, Math.min(size, buffer.length))];
  for (let at = size; at < buffer.length; at += size) pieces.push(buffer.subarray(at, at + size));
  return pieces;
}

/** Bytes `from` (included) to `to` (excluded) of the pieces taken as one, nothing copied. */
function* between(pieces: readonly Buffer[], from: number, to: number): Generator<Buffer> {
  let at = 0;
  for (const piece of pieces) {
    const start = Math.max(from - at, 0);
    const end = Math.min(to - at, piece.length);
    if (end > start) yield piece.subarray(start, end);
    at += piece.length;
  }
}

/**
 * The plaintext of a stored object (or of `range` of it) read through `reader`, each chunk handed
 * out only once its tag verified. Two buffers of a sealed chunk's size (sealedChunkBuffers) are read
 * into in turn, the next chunk read while this one is opened, so a read costs no buffer of its own;
 * the cipher's output is the only new one. The object's size tells which chunk is the final one, so
 * a file cut at a chunk's end is refused as much as one cut inside a chunk.
 */
export async function* decryptObject(key: string, reader: ObjectReader, dataKey: Buffer, range?: ByteRange): AsyncGenerator<Buffer> {
  const head = Buffer.alloc(HEADER_SIZE);
  if ((await reader.read(head, HEADER_SIZE, 0)) < HEADER_SIZE) throw new ObjectIntegrityError(key, "shorter than its header");
  const header = parseHeader(key, head);
  const sealedSize = header.chunkSize + TAG_SIZE;
  const body = reader.size - HEADER_SIZE;
  const chunks = Math.max(1, Math.ceil(body / sealedSize));
  const sealedLengthOf = (index: number) => (index === chunks - 1 ? body - index * sealedSize : sealedSize);
  if (sealedLengthOf(chunks - 1) < TAG_SIZE) throw new ObjectIntegrityError(key, `chunk ${chunks - 1} (the last) is shorter than its tag: truncated`);
  const plainSize = body - chunks * TAG_SIZE;
  const start = range?.start ?? 0;
  const end = range?.end ?? plainSize - 1;
  if (end >= plainSize) throw new ObjectIntegrityError(key, "truncated");
  const first = Math.floor(start / header.chunkSize);
  const last = Math.max(first, Math.floor(end / header.chunkSize));
  // Objects sealed with the usual chunk size read into kept buffers (a short last chunk reads into
  // the start of one); any other size, written before, gets buffers of its own.
  const buffers = [first, first + 1].filter((i) => i <= last).map((i) => sealedChunkBuffers.take(sealedSize, sealedLengthOf(i)));
  const readChunk = (index: number) => reader.read(buffers[(index - first) % 2]!, sealedLengthOf(index), HEADER_SIZE + index * sealedSize);
  let pending: Promise<number> | null = readChunk(first);
  try {
    for (let index = first; index <= last; index++) {
      const read: number = await pending!;
      pending = index < last ? readChunk(index + 1) : null;
      const length = sealedLengthOf(index);
      if (read !== length) throw new ObjectIntegrityError(key, `chunk ${index} is truncated`);
      const sealed = buffers[(index - first) % 2]!;
      const plain = openChunkParts(
        dataKey,
        header,
        index,
        index === chunks - 1,
        slices(sealed.subarray(0, length - TAG_SIZE), OUTPUT_SLICE),
        sealed.subarray(length - TAG_SIZE, length),
      );
      if (!plain) {
        const what =
          index === chunks - 1 ? `chunk ${index} (the last) fails authentication or the object is truncated` : `chunk ${index} fails authentication`;
        throw new ObjectIntegrityError(key, what);
      }
      const from = index === first ? start - index * header.chunkSize : 0;
      const to = index === last ? end - index * header.chunkSize + 1 : header.chunkSize;
      yield* between(plain, from, to);
    }
  } finally {
    // A read still on its way when the reader stops (an error, or a consumer gone) settles unheard,
    // and only then are the buffers free: nothing handed out refers to them (the cipher's output is
    // its own, and its tag is copied by setAuthTag).
    await pending?.catch(() => 0);
    for (const buffer of buffers) sealedChunkBuffers.give(buffer);
  }
}

// ---- Master keys -------------------------------------------------------------------------------

/** A master key and the id its wrapped keys are recorded under (a fingerprint, never the key). */
export type MasterKey = { id: string; key: Buffer };

export function masterKey(key: Buffer): MasterKey {
  const id = createHash("sha256").update("client-portal document master key\0").update(key).digest("hex").slice(0, 16);
  return { id, key };
}

/** The data key sealed by the master key (AES-256-GCM), bound to the object it opens: nonce ‖ ciphertext ‖ tag. */
export function wrapKey(master: MasterKey, storageKey: string, dataKey: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", master.key, iv);
  cipher.setAAD(Buffer.from(`stored-object-key:${storageKey}`));
  return Buffer.concat([iv, cipher.update(dataKey), cipher.final(), cipher.getAuthTag()]);
}

export function unwrapKey(master: MasterKey, storageKey: string, wrapped: Buffer): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", master.key, wrapped.subarray(0, 12));
  decipher.setAAD(Buffer.from(`stored-object-key:${storageKey}`));
  decipher.setAuthTag(wrapped.subarray(wrapped.length - TAG_SIZE));
  try {
    return Buffer.concat([decipher.update(wrapped.subarray(12, wrapped.length - TAG_SIZE)), decipher.final()]);
  } catch {
    throw new ObjectIntegrityError(storageKey, "its data key does not open with the master key");
  }
}
