import path from "node:path";
import type { Config } from "../config.ts";
import { LocalDirectoryStorage } from "./local-directory-storage.ts";
import { createS3Client, S3Storage } from "./s3-storage.ts";
import type { ObjectStorage } from "./storage.ts";

export function createStorage(config: Config): ObjectStorage {
  if (config.s3) return new S3Storage(createS3Client(config.s3), config.s3.bucket);
  return new LocalDirectoryStorage(path.join(config.dataDir, "documents"));
}
