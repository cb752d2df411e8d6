// Rows that no longer mean anything, removed hourly by one instance: expired sessions (refused when
// presented anyway), spent rate-limit windows, expired trusted-device cookies, and the sent-mail
// records of jobs pg-boss has long since deleted (it keeps a job at most 14 days).
import { deleteExpiredRateLimits } from "../auth/rate-limit.ts";
import { deleteExpiredSessions } from "../auth/session.ts";
import { deleteExpiredTrustedDevices } from "../auth/trusted-devices.ts";
import { deleteExpiredSignInChallenges } from "../auth/second-factor.ts";
import { deleteForgottenSignIns } from "../auth/sign-ins.ts";
import { deleteClosedNotices } from "../domains/documents/job-queries.ts";
import type { AppDeps } from "../trpc/context.ts";
import type { JobKind } from "./queue.ts";

const SENT_MAIL_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

const SWEEPS: Array<[what: string, remove: (deps: AppDeps) => Promise<number>]> = [
  ["expired sessions", (deps) => deleteExpiredSessions(deps.db, deps.now())],
  ["expired rate limits", (deps) => deleteExpiredRateLimits(deps.db)],
  ["expired trusted devices", (deps) => deleteExpiredTrustedDevices(deps.db, deps.now())],
  ["expired sign-in challenges", (deps) => deleteExpiredSignInChallenges(deps.db, deps.now())],
  ["sign-in places not seen for a year", (deps) => deleteForgottenSignIns(deps.db, deps.now())],
  [
    "old email changes",
    async (deps) => {
      // Kept as long as sent-mail records: the mail about a change reads its row.
      const cutoff = new Date(deps.now().getTime() - SENT_MAIL_KEPT_MS);
      const result = await deps.db.deleteFrom("email_changes").where("created_at", "<", cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  ],
  ["old upload notices", (deps) => deleteClosedNotices(deps.db, new Date(deps.now().getTime() - SENT_MAIL_KEPT_MS))],
  [
    "old sent-mail records",
    async (deps) => {
      const cutoff = new Date(deps.now().getTime() - SENT_MAIL_KEPT_MS);
      const result = await deps.db.deleteFrom("sent_mail").where("sent_at", "<", cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  ],
];

declare module "./queue.ts" {
  interface JobPayloads {
    /** Runs on its schedule and carries nothing. */
    "sweep-expired-rows": Record<string, never>;
  }
}

export const sweepExpiredRowsJob: JobKind<"sweep-expired-rows"> = {
  name: "sweep-expired-rows",
  schedule: "17 * * * *",
  async run(deps) {
    // Each sweep on its own, so one failing does not keep the others from running; the job fails
    // (and is retried) if any did.
    const results = await Promise.allSettled(
      SWEEPS.map(async ([what, remove]) => {
        const deleted = await remove(deps);
        if (deleted > 0) deps.logger.info({ deleted }, `${what} removed`);
      }),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
  },
};
