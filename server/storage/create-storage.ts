import type { Config } from "../config.ts";
import type { ObjectStorage } from "./storage.ts";

export function createStorage(_config: Config): ObjectStorage {
  const missing = async (): Promise<never> => {
    throw new Error("Storage not implemented yet");
  };
  return { put: missing, get: missing, delete: missing };
}
