import type { Readable } from "node:stream";

/** An object as a listing shows it: enough to tell an orphan (no row, and old enough) apart. */
export type StoredObject = { key: string; lastModified: Date };

/** Bytes `start` to `end` of an object, both included, as an HTTP Range names them. */
export type ByteRange = { start: number; end: number };

/** An object opened for reads at given positions into the caller's buffers (ObjectStorage.openReader). */
export interface ObjectReader {
  /** The object's size in bytes when it was opened. */
  readonly size: number;
  /** Reads `length` bytes at `position` into the start of `into`: the count read, less only at the object's end. */
  read(into: Buffer, length: number, position: number): Promise<number>;
  close(): Promise<void>;
}

/** Where document content lives; rows in `documents` (and `site_media`) name objects by random keys. */
export interface ObjectStorage {
  /**
   * Writes the whole stream atomically: the object exists complete or not at all. Settles only once
   * nothing more will be written for this call, so when it rejects, the key names no object.
   */
  put(key: string, body: Readable): Promise<void>;
  /**
   * The object, or only the bytes of `range` (the caller keeps the range within the object's size).
   * Rejects with `ObjectNotFoundError` when there is no such object.
   */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * Optional, where reads at a position are cheap (a local file): the object opened for reads into
   * the caller's buffers. A reader that uses each read at once (the encrypting storage decrypts it)
   * reuses its buffers instead of a new one per read, which the garbage collector would collect.
   * Rejects with `ObjectNotFoundError` as get() does.
   */
  openReader?(key: string): Promise<ObjectReader>;
  /** Removing an object that is already gone is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored object whose key is one of ours, in no particular order. */
  list(): AsyncIterable<StoredObject>;
  /** Resolves when the storage can be read and written now (the readiness check). */
  check(): Promise<void>;
}

export class ObjectNotFoundError extends Error {
  constructor(key: string) {
    super(`No stored object ${key}`);
    this.name = "ObjectNotFoundError";
  }
}

/** Keys are ours (random ids), never derived from user input; anything else is a bug. */
const KEY_PATTERN = /^[a-z0-9][a-z0-9-]{15,127}$/;

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`Invalid storage key ${JSON.stringify(key)}`);
}
