import type { AddressInfo } from "node:net";
import http from "node:http";
import type { Logger } from "pino";
import { createApp, type AppOptions } from "./app.ts";
import { createRateLimits, deleteExpiredRateLimits } from "./auth/rate-limit.ts";
import { deleteExpiredSessions } from "./auth/session.ts";
import { deleteExpiredTrustedDevices } from "./auth/trusted-devices.ts";
import { isDatabaseUnavailable } from "./db/errors.ts";
import type { Config } from "./config.ts";
import type { DatabaseHandle } from "./db/database.ts";
import { createMailer } from "./mail/create-mailer.ts";
import { createStorage } from "./storage/create-storage.ts";
import { capConnections, type ConnectionLimits, DEFAULT_CONNECTION_LIMITS, serverTimeouts } from "./http-limits.ts";
import type { AppDeps } from "./trpc/context.ts";

/** Expired sessions are refused when presented; this removes the rows nobody will present again. */
const SESSION_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Each removes rows that no longer mean anything, and says how many. */
const SWEEPS: Array<[what: string, remove: (deps: AppDeps) => Promise<number>]> = [
  ["expired sessions", (deps) => deleteExpiredSessions(deps.db, deps.now())],
  ["expired rate limits", (deps) => deleteExpiredRateLimits(deps.db)],
  ["expired trusted devices", (deps) => deleteExpiredTrustedDevices(deps.db, deps.now())],
];

function sweepExpiredSessions(deps: AppDeps): { stop: () => Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = Promise.all(
      SWEEPS.map(([what, remove]) =>
        remove(deps).then(
          (deleted) => {
            if (deleted > 0) deps.logger.info({ deleted }, `${what} removed`);
          },
          (err: unknown) => {
            if (!isDatabaseUnavailable(err)) deps.logger.warn({ err }, `${what}: sweep failed`);
          },
        ),
      ),
    ).then(() => undefined);
  };
  sweep();
  const timer = setInterval(sweep, SESSION_SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    // The database closes after this, so a sweep under way finishes first.
    stop: () => {
      clearInterval(timer);
      return running;
    },
  };
}

export type RunningServer = { port: number; url: string; deps: AppDeps; close: () => Promise<void> };

/** Builds the services, the app and the HTTP server; used by server/index.ts and by the tests. */
export async function startServer(opts: {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  now?: () => Date;
  app?: AppOptions;
  overrides?: Partial<AppDeps>;
  /** Tests shorten the timeouts. */
  connectionLimits?: Partial<ConnectionLimits>;
}): Promise<RunningServer> {
  const deps: AppDeps = {
    config: opts.config,
    db: opts.database.db,
    logger: opts.logger,
    mailer: createMailer(opts.config, opts.logger),
    storage: createStorage(opts.config),
    rateLimits: createRateLimits(opts.database.db),
    now: opts.now ?? (() => new Date()),
    ...opts.overrides,
  };
  const limits: ConnectionLimits = {
    ...DEFAULT_CONNECTION_LIMITS,
    maxConnections: opts.config.maxConnections,
    maxConnectionsPerIp: opts.config.maxConnectionsPerIp,
    ...opts.connectionLimits,
  };
  const app = createApp(deps, { ...opts.app, bodyTimeoutMs: limits.bodyTimeoutMs });
  const server = http.createServer(serverTimeouts(limits), app);
  capConnections(server, limits);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.config.port, opts.config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const sessionSweep = sweepExpiredSessions(deps);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    deps,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })
        .then(() => sessionSweep.stop())
        .then(() => opts.database.close()),
  };
}
