import type { Readable } from "node:stream";

/** Where document content lives; rows in `documents` name objects by random keys. */
export interface ObjectStorage {
  /** Writes the whole stream atomically: the object exists complete or not at all. */
  put(key: string, body: Readable): Promise<void>;
  /** Rejects with `ObjectNotFoundError` when there is no such object. */
  get(key: string): Promise<Readable>;
  /** Removing an object that is already gone is not an error. */
  delete(key: string): Promise<void>;
}

export class ObjectNotFoundError extends Error {
  constructor(key: string) {
    super(`No stored object ${key}`);
    this.name = "ObjectNotFoundError";
  }
}

/** Keys are ours (random ids), never derived from user input; anything else is a bug. */
const KEY_PATTERN = /^[a-z0-9][a-z0-9-]{15,127}$/;

export function assertValidKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new Error(`Invalid storage key ${JSON.stringify(key)}`);
}
