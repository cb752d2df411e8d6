// Once a day, one instance disposes of the documents past the firm's retention rules (documents
// kept N years after an account's last activity, a signed Form 8879 at least 3 years, the trash 30
// days), with a receipt in the trail per account and rule; accounts under a legal hold are left as
// they are (retention/service.ts, docs/safeguards.md "Retention and disposal"). The hourly trash
// purge (purge-trash.ts) goes through the same disposal for the trash rule.
import { disposeDue } from "../domains/retention/service.ts";
import type { JobKind } from "./queue.ts";

declare module "./queue.ts" {
  interface JobPayloads {
    /** Runs on its schedule and carries nothing. */
    "retention-disposal": Record<string, never>;
  }
}

export const retentionDisposalJob: JobKind<"retention-disposal"> = {
  name: "retention-disposal",
  schedule: "23 3 * * *",
  // One run at a time, however many instances and schedules; a second waits its turn.
  policy: "stately",
  async run(deps) {
    const disposed = await disposeDue(deps);
    if (disposed.documents > 0) deps.logger.info(disposed, "retention disposal done");
  },
};
