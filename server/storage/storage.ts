import type { Readable } from "node:stream";

/** Where document content lives; rows in `documents` name objects by random keys. */
export interface ObjectStorage {
  /** Writes the whole stream atomically: the object exists complete or not at all. */
  put(key: string, body: Readable): Promise<void>;
  get(key: string): Promise<Readable>;
  delete(key: string): Promise<void>;
}
