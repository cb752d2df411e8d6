import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { inject } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { createLogger } from "../../server/logger.ts";
import { startServer } from "../../server/server.ts";
import type { AppOptions } from "../../server/app.ts";
import type { ConnectionLimits } from "../../server/http-limits.ts";
import type { JobOptions } from "../../server/jobs/queue.ts";
import type { AppDeps } from "../../server/trpc/context.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { serverLogs } from "./log-registry.ts";

export type TestServer = {
  url: string;
  port: number;
  deps: AppDeps;
  db: AppDeps["db"];
  database: TestDatabase;
  dataDir: string;
  /** Every log line the server wrote (JSON), for assertions about what is and is not logged. */
  logs: string[];
  clock: TestClock;
  close: () => Promise<void>;
};

/** The master key of documents stored by test servers (a test of rotation names others). */
export const TEST_DOCUMENT_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString("base64");

export const TEST_JOB_OPTIONS: Partial<JobOptions> = { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1, stopTimeoutMs: 2000 };

/** A clock the test moves by hand; it starts at the real time. */
export type TestClock = { now: () => Date; advance: (ms: number) => void; set: (date: Date) => void };

export function createTestClock(): TestClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
    set: (date) => {
      offset = date.getTime() - Date.now();
    },
  };
}

/** The clock of each running test server, by port: sign-in helpers compute codes on the server's time. */
const clocks = new Map<string, TestClock>();

export function clockOf(url: string): TestClock | undefined {
  return clocks.get(new URL(url).port);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The real app on a free port, on a fresh database of its own (see helpers/database.ts).
 * `env` adds environment variables (SMTP_URL, OIDC_*, ...) to the parsed configuration.
 */
export async function startTestServer(
  opts: {
    env?: Record<string, string>;
    overrides?: Partial<AppDeps>;
    database?: TestDatabase;
    dataDir?: string;
    /** App options; the web client defaults to this run's build (global-setup-client.ts). */
    app?: AppOptions;
    connectionLimits?: Partial<ConnectionLimits>;
    jobs?: Partial<JobOptions>;
    /** PUBLIC_URL's host: "localhost" for passkeys (browsers refuse an IP address as WebAuthn's RP ID). */
    publicHost?: string;
  } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "portal-test-"));
  const logs: string[] = [];
  serverLogs.push(logs);
  const database = opts.database ?? (await createTestDatabase());
  const clock = createTestClock();
  // A free port can be taken by another worker's connection between the probe and the listen
  // (CI saw EADDRINUSE once): the start tries again on a new port, a few times.
  const start = async (attempt: number): Promise<Awaited<ReturnType<typeof startServer>>> => {
    const port = await freePort();
    const config = loadConfig({
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://${opts.publicHost ?? "127.0.0.1"}:${port}`,
      LOG_LEVEL: "info",
      DOCUMENT_ENCRYPTION_KEY: TEST_DOCUMENT_ENCRYPTION_KEY,
      ...opts.env,
    });
    const logger = createLogger(
      config.logLevel,
      new Writable({
        write(chunk, _enc, cb) {
          logs.push(String(chunk));
          cb();
        },
      }),
    );
    try {
      return await startServer({
        config,
        logger,
        database,
        now: clock.now,
        overrides: opts.overrides,
        // Projects without the build (vitest.config.ts) serve a folder with none: pages answer 503,
        // never whatever an earlier `npm run build` left in dist/client.
        app: { clientDir: (inject("clientDir") as string | undefined) ?? path.join(dataDir, "no-client"), ...opts.app },
        // The test's client and the server share one event loop: when a test holds it past the server's
        // idle time (the embedded database's work runs on it, and a loaded machine stretches that), the
        // server closes a kept-alive connection while the client sends on it, and the request meets a
        // reset (seen on the embedded database under load). Idle connections are the client's to close
        // here (fetch's 4 s); connections.test.ts sets its own limits to test the server's.
        connectionLimits: { keepAliveTimeoutMs: 60_000, ...opts.connectionLimits },
        // Mail within a second, and a retry a second or two after a failure (doubling from there).
        jobs: { ...TEST_JOB_OPTIONS, ...opts.jobs },
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EADDRINUSE" && attempt < 5) return start(attempt + 1);
      throw err;
    }
  };
  const server = await start(1).catch(async (err: unknown) => {
    // A start the test expects to fail leaves no database of its own behind.
    if (!opts.database) await database.close();
    throw err;
  });
  clocks.set(new URL(server.url).port, clock);
  return {
    url: server.url,
    port: server.port,
    deps: server.deps,
    db: server.deps.db,
    database,
    dataDir,
    logs,
    clock,
    close: async () => {
      clocks.delete(new URL(server.url).port);
      await server.close();
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
