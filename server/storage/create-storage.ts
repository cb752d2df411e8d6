import path from "node:path";
import type { Config } from "../config.ts";
import { LocalDirectoryStorage } from "./local-directory-storage.ts";
import type { ObjectStorage } from "./storage.ts";

export function createStorage(config: Config): ObjectStorage {
  return new LocalDirectoryStorage(path.join(config.dataDir, "documents"));
}
