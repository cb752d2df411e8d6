// Every hour, one instance queues the reminders of signature requests due soon: once, 2 days before
// the due date on the firm's calendar (or at the first run after 8:00 there within those days), to
// the signers whose turn it is. Each request remembers the due date its reminder went out for
// (signature_requests.due_reminder_for); the mail job checks again that the signer still has to
// sign (docs/decisions.md, "Signatures").
import { addDays, localDate } from "../domains/appointments/firm-clock.ts";
import { listSigners, takeDueSignatureReminders } from "../domains/signatures/queries.ts";
import type { AppDeps } from "../trpc/context.ts";
import type { JobKind } from "./queue.ts";

const REMINDER_HOUR = 8;
export const SIGNATURE_REMINDER_DAYS = 2;

declare module "./queue.ts" {
  interface JobPayloads {
    /** Runs on its schedule and carries nothing. */
    "signature-reminders": Record<string, never>;
  }
}

export const signatureRemindersJob: JobKind<"signature-reminders"> = {
  name: "signature-reminders",
  schedule: "11 * * * *",
  async run(deps) {
    const queued = await queueSignatureReminders(deps, deps.now());
    if (queued > 0) deps.logger.info({ queued }, "signature reminders queued");
  },
};

/** Queues the reminders due at `now`; returns how many mails. */
export async function queueSignatureReminders(deps: Pick<AppDeps, "db" | "jobs" | "config">, now: Date): Promise<number> {
  const timeZone = deps.config.firmTimeZone;
  const hour = Number(new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", hour: "numeric" }).format(now));
  if (hour < REMINDER_HOUR) return 0;
  const today = localDate(now, timeZone);
  return deps.db.transaction().execute(async (tx) => {
    const due = await takeDueSignatureReminders(tx, { from: today, to: addDays(today, SIGNATURE_REMINDER_DAYS) });
    const signers = await listSigners(
      tx,
      due.map((r) => r.id),
    );
    let queued = 0;
    for (const request of due) {
      const pending = signers.filter((s) => s.request_id === request.id && s.status === "pending");
      const turn = request.signing_order === "sequential" ? pending.slice(0, 1) : pending;
      for (const signer of turn) {
        await deps.jobs.send("email", { kind: "signature-turn", requestId: request.id, position: signer.position, reminder: true }, { tx });
        queued++;
      }
    }
    return queued;
  });
}
