// Every five minutes, one instance queues the reminder of each scheduled appointment that starts
// within the next 24 hours and has none for its current time yet (appointments.reminder_for). A
// moved appointment wants a reminder for its new time; one cancelled or moved after its reminder
// was queued gets none, as the mail job checks the time and status again when it runs.
import { takeDueReminders } from "../domains/appointments/queries.ts";
import { REMINDER_BEFORE_MS } from "../domains/appointments/service.ts";
import type { JobKind } from "./queue.ts";

declare module "./queue.ts" {
  interface JobPayloads {
    /** Runs on its schedule and carries nothing. */
    "appointment-reminders": Record<string, never>;
  }
}

export const appointmentRemindersJob: JobKind<"appointment-reminders"> = {
  name: "appointment-reminders",
  schedule: "*/5 * * * *",
  async run(deps) {
    const now = deps.now();
    const queued = await deps.db.transaction().execute(async (tx) => {
      const due = await takeDueReminders(tx, now, new Date(now.getTime() + REMINDER_BEFORE_MS));
      for (const appointment of due) {
        await deps.jobs.send(
          "email",
          { kind: "appointment-reminder", appointmentId: appointment.id, at: appointment.appointment_date.toISOString() },
          { tx },
        );
      }
      return due.length;
    });
    if (queued > 0) deps.logger.info({ queued }, "appointment reminders queued");
  },
};
