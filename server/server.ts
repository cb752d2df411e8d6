import type { AddressInfo } from "node:net";
import http from "node:http";
import type { Logger } from "pino";
import { createApp, type AppOptions } from "./app.ts";
import { createRateLimits } from "./auth/rate-limit.ts";
import type { Config } from "./config.ts";
import type { DatabaseHandle } from "./db/database.ts";
import { createMailer } from "./mail/create-mailer.ts";
import { createStorage } from "./storage/create-storage.ts";
import type { AppDeps } from "./trpc/context.ts";

export type RunningServer = { port: number; url: string; deps: AppDeps; close: () => Promise<void> };

/** Builds the services, the app and the HTTP server; used by server/index.ts and by the tests. */
export async function startServer(opts: {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  now?: () => Date;
  app?: AppOptions;
  overrides?: Partial<AppDeps>;
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
  const app = createApp(deps, opts.app);
  const server = http.createServer(app);
  // Slow or stalled clients must not hold sockets forever.
  server.requestTimeout = 120_000;
  server.headersTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.config.port, opts.config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    deps,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => opts.database.close()),
  };
}
