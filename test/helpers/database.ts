// Each test file gets its own database, a copy of a template that global-setup.ts migrated once:
// on a real Postgres (DATABASE_URL) a database made with CREATE DATABASE ... TEMPLATE; without it,
// an embedded Postgres (PGlite) opened on a copy of the template's data folder, which skips the
// embedded database's own initdb (seconds per file) and its migrations.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, migrateToLatest, type DatabaseHandle } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
    /** Without DATABASE_URL: the folder of the migrated embedded template (global-setup.ts). */
    embeddedTemplate: string;
    /**
     * The web client built for this run (global-setup-client.ts): provided only to the projects
     * that serve it (vitest.config.ts), undefined in the others. A server test that reads the
     * built files goes in vitest.config.ts's `needsClient`, as static-assets.test.ts does.
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
    const template = inject("embeddedTemplate") as string | undefined;
    // A project without the database set-up (vitest.config.ts) migrates one in memory.
    if (!template) {
      const handle = await openDatabase({ dataDir: "memory://", logger: quiet });
      await migrateToLatest(handle.db, quiet);
      return { ...handle, url: undefined, name: "memory" };
    }
    const dataDir = await mkdtemp(path.join(path.dirname(template), "db-"));
    await cp(template, dataDir, { recursive: true });
    const handle = await openDatabase({ dataDir, logger: quiet });
    return {
      ...handle,
      url: undefined,
      name: "embedded",
      close: async () => {
        await handle.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `portal_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl(base) });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${inject("templateDatabase")}`);
    // A test database is thrown away after its file: a commit need not wait for the disk.
    await admin.query(`alter database ${name} set synchronous_commit = off`);
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

/** Where embedded databases' folders go: in memory (tmpfs) where there is one, as "memory://" was. */
export function embeddedScratchDir(): string {
  return existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
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
