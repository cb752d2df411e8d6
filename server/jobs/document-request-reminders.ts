// Every hour, one instance queues the reminders of open document requests: 3 days before the due
// date and on it, on the firm's calendar (FIRM_TIME_ZONE), from 8:00 there so none arrives in the
// night. Each request remembers the due date each reminder was queued for (document_requests
// early_reminder_for, due_reminder_for), so each goes once; the mail job checks the status and the
// due date again when it runs (docs/decisions.md, Document requests).
import { addDays, localDate } from "../domains/appointments/firm-clock.ts";
import { takeDueRequestReminders } from "../domains/requests/queries.ts";
import { EARLY_REMINDER_DAYS } from "../domains/requests/service.ts";
import type { AppDeps } from "../trpc/context.ts";
import type { JobKind } from "./queue.ts";

/** Reminders wait until this hour of the firm's day. */
const REMINDER_HOUR = 8;

declare module "./queue.ts" {
  interface JobPayloads {
    /** Runs on its schedule and carries nothing. */
    "document-request-reminders": Record<string, never>;
  }
}

export const documentRequestRemindersJob: JobKind<"document-request-reminders"> = {
  name: "document-request-reminders",
  schedule: "7 * * * *",
  async run(deps) {
    const queued = await queueRequestReminders(deps, deps.now());
    if (queued > 0) deps.logger.info({ queued }, "document request reminders queued");
  },
};

/** Queues the reminders due at `now`; returns how many. */
async function queueRequestReminders(deps: Pick<AppDeps, "db" | "jobs" | "config">, now: Date): Promise<number> {
  const timeZone = deps.config.firmTimeZone;
  const hour = Number(new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", hour: "numeric" }).format(now));
  if (hour < REMINDER_HOUR) return 0;
  const today = localDate(now, timeZone);
  return deps.db.transaction().execute(async (tx) => {
    // Due within the next 3 days (a request created later than that got its due date in the mail
    // about it, and counts as reminded), and due today.
    const early = await takeDueRequestReminders(tx, "early_reminder_for", { from: addDays(today, 1), to: addDays(today, EARLY_REMINDER_DAYS) });
    const due = await takeDueRequestReminders(tx, "due_reminder_for", { from: today, to: today });
    const reminders = [...early.map((r) => ({ ...r, reminder: "early" as const })), ...due.map((r) => ({ ...r, reminder: "due" as const }))];
    for (const { id, due_date, reminder } of reminders) {
      await deps.jobs.send("email", { kind: "document-request-reminder", requestId: id, dueDate: due_date!, reminder }, { tx });
    }
    return reminders.length;
  });
}
