// Every hour, one instance queues the reminder of each organizer still waiting for the client and
// due soon: once, 2 days before the due date on the firm's calendar (or at the first run after 8:00
// there within those days), as the signature reminders do. Each organizer remembers the due date its
// reminder went out for (organizers.due_reminder_for); the mail job checks again that it is still
// waiting and still due that day.
import { addDays, localDate } from "../domains/appointments/firm-clock.ts";
import { takeDueOrganizerReminders } from "../domains/organizers/queries.ts";
import type { AppDeps } from "../trpc/context.ts";
import type { JobKind } from "./queue.ts";

const REMINDER_HOUR = 8;
export const ORGANIZER_REMINDER_DAYS = 2;

declare module "./queue.ts" {
  interface JobPayloads {
    /** Runs on its schedule and carries nothing. */
    "organizer-reminders": Record<string, never>;
  }
}

export const organizerRemindersJob: JobKind<"organizer-reminders"> = {
  name: "organizer-reminders",
  schedule: "13 * * * *",
  async run(deps) {
    const queued = await queueOrganizerReminders(deps, deps.now());
    if (queued > 0) deps.logger.info({ queued }, "organizer reminders queued");
  },
};

/** Queues the reminders due at `now`; returns how many. */
export async function queueOrganizerReminders(deps: Pick<AppDeps, "db" | "jobs" | "config">, now: Date): Promise<number> {
  const timeZone = deps.config.firmTimeZone;
  const hour = Number(new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", hour: "numeric" }).format(now));
  if (hour < REMINDER_HOUR) return 0;
  const today = localDate(now, timeZone);
  return deps.db.transaction().execute(async (tx) => {
    const due = await takeDueOrganizerReminders(tx, { from: today, to: addDays(today, ORGANIZER_REMINDER_DAYS) });
    for (const organizer of due) {
      await deps.jobs.send("email", { kind: "organizer-reminder", organizerId: organizer.id, dueDate: organizer.due_date! }, { tx });
    }
    return due.length;
  });
}
