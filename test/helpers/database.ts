// Each test file gets its own database: on a real Postgres (DATABASE_URL) a copy of a template
// that global-setup migrated once; without it, an in-memory embedded Postgres migrated here.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, migrateToLatest, type DatabaseHandle } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
    /**
     * The web client built for this run (global-setup-client.ts): provided only to the projects
     * that serve it (vitest.config.ts), undefined in the others.
     */
    clientDir: string;
  }
}
const quiet = createLogger("silent");

export function adminUrl(databaseUrl: string, database = "postgres"): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export type TestDatabase = DatabaseHandle & { url: string | undefined; name: string };

export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const handle = await openDatabase({ dataDir: "memory://", logger: quiet });
    await migrateToLatest(handle.db, quiet);
    return { ...handle, url: undefined, name: "memory" };
  }
  const name = `portal_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl(base) });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${inject("templateDatabase")}`);
  } finally {
    await admin.end();
  }
  const url = adminUrl(base, name);
  const handle = await openDatabase({ databaseUrl: url, dataDir: "memory://", logger: quiet });
  return {
    ...handle,
    url,
    name,
    close: async () => {
      await handle.close();
      await dropDatabase(base, name);
    },
  };
}

export async function dropDatabase(base: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl(base) });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}
