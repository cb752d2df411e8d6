import type { AddressInfo } from "node:net";
import http from "node:http";
import type { Logger } from "pino";
import { createApp, type AppOptions } from "./app.ts";
import { createRateLimits } from "./auth/rate-limit.ts";
import type { Config } from "./config.ts";
import { serveBackups } from "./backup/backup-socket.ts";
import type { DatabaseHandle } from "./db/database.ts";
import { appointmentRemindersJob } from "./jobs/appointment-reminders.ts";
import { documentRequestRemindersJob } from "./jobs/document-request-reminders.ts";
import { signatureRemindersJob } from "./jobs/signature-reminders.ts";
import { organizerRemindersJob } from "./jobs/organizer-reminders.ts";
import { documentTextBackfillJob, documentTextJob } from "./jobs/document-text.ts";
import { emailGaveUpJob, emailJob, emailNowJob } from "./jobs/email.ts";
import { encryptStoredObjectsJob } from "./jobs/encrypt-stored-objects.ts";
import { sweepOrphanedObjectsJob } from "./jobs/orphaned-objects.ts";
import { purgeTrashJob } from "./jobs/purge-trash.ts";
import { retentionDisposalJob } from "./jobs/retention.ts";
import { createJobs, type JobOptions } from "./jobs/queue.ts";
import { createMessageEvents } from "./domains/messages/events.ts";
import { sweepExpiredRowsJob } from "./jobs/sweeps.ts";
import { createMailer } from "./mail/create-mailer.ts";
import { createBackendStorage, createStorage } from "./storage/create-storage.ts";
import { capConnections, type ConnectionLimits, DEFAULT_CONNECTION_LIMITS, serverTimeouts } from "./http-limits.ts";
import type { AppDeps } from "./trpc/context.ts";
import { checkConfiguredSigningIdentity } from "./domains/signatures/certificate.ts";
import { configuredKbaProvider } from "./domains/signatures/kba.ts";

type RunningServer = {
  port: number;
  url: string;
  deps: AppDeps;
  /**
   * Stops taking connections, gives requests under way (uploads too) up to `graceMs` to finish,
   * cuts what is left, then stops the jobs and closes the database. Tests pass no grace.
   */
  close: (opts?: { graceMs?: number }) => Promise<void>;
};

/** Resolves once every connection is gone: idle ones at once, busy ones when done or at the deadline. */
async function stopHttp(server: http.Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  // A kept-alive connection between requests would otherwise hold the close until its timeout.
  const closeWhenIdle = setInterval(() => server.closeIdleConnections(), 100);
  await Promise.race([closed, deadline]);
  clearTimeout(timer);
  clearInterval(closeWhenIdle);
  server.closeAllConnections();
  await closed;
}

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
  /** Tests shorten the polling and retry intervals. */
  jobs?: Partial<JobOptions>;
}): Promise<RunningServer> {
  // Signing settings are checked before anything starts: a wrong one stops the start with its reason.
  checkConfiguredSigningIdentity(opts.config);
  configuredKbaProvider(opts.config);
  const jobs = createJobs(
    opts.database,
    opts.logger,
    [
      emailJob,
      emailNowJob,
      emailGaveUpJob,
      sweepExpiredRowsJob,
      sweepOrphanedObjectsJob,
      purgeTrashJob,
      retentionDisposalJob,
      appointmentRemindersJob,
      documentRequestRemindersJob,
      signatureRemindersJob,
      organizerRemindersJob,
      documentTextJob,
      documentTextBackfillJob,
      encryptStoredObjectsJob,
    ],
    opts.jobs,
  );
  const deps: AppDeps = {
    config: opts.config,
    db: opts.database.db,
    logger: opts.logger,
    mailer: createMailer(opts.config, opts.logger),
    storage: createStorage(opts.config, opts.database.db, opts.logger),
    rateLimits: createRateLimits(opts.database.db),
    jobs,
    messageEvents: createMessageEvents(opts.database, opts.logger),
    now: opts.now ?? (() => new Date()),
    ...opts.overrides,
  };
  const limits: ConnectionLimits = {
    ...DEFAULT_CONNECTION_LIMITS,
    maxConnections: opts.config.maxConnections,
    maxConnectionsPerIp: opts.config.maxConnectionsPerIp,
    ...opts.connectionLimits,
  };
  // Before the first request, which may enqueue a job.
  await jobs.start(deps);
  const app = createApp(deps, { ...opts.app, bodyTimeoutMs: limits.bodyTimeoutMs });
  const server = http.createServer(serverTimeouts(limits), app);
  capConnections(server, limits);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.config.port, opts.config.host, () => resolve());
  }).catch(async (err: unknown) => {
    // A start that cannot listen leaves nothing running behind it (a test may try another port).
    await deps.messageEvents.close();
    await jobs.stop();
    await deps.mailer.close?.();
    throw err;
  });
  // The embedded database's one process reads it for `npm run backup` (backup/backup-socket.ts).
  const stopBackups =
    opts.database.kind === "embedded"
      ? await serveBackups({
          dataDir: opts.config.dataDir,
          db: opts.database.db,
          storage: createBackendStorage(opts.config),
          logger: opts.logger,
          now: deps.now,
        }).catch((err: unknown) => {
          opts.logger.warn({ err }, "the backup socket could not be opened: npm run backup needs the app stopped");
          return async () => undefined;
        })
      : async () => undefined;
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    deps,
    close: ({ graceMs = 0 } = {}) =>
      // Event streams never go idle: they end first, and their pages reconnect to another instance.
      deps.messageEvents
        .close()
        .then(() => stopHttp(server, graceMs))
        .then(stopBackups)
        // The database closes after this, so jobs under way finish (or are handed back) first.
        .then(() => jobs.stop())
        .then(() => deps.mailer.close?.())
        .then(() => opts.database.close()),
  };
}
