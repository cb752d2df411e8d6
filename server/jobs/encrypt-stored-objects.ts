// Encryption at rest for what was stored before it (docs/security.md, "Documents encrypted at
// rest"): every ten minutes, and straight on after a full batch, objects without a data key are
// encrypted (storage/encrypt-legacy-objects.ts). Stately: one run under way and one waiting, however
// many instances; the worklist is "no key row yet", so a run that stops anywhere loses nothing.
import { encryptLegacyObjects } from "../storage/encrypt-legacy-objects.ts";
import type { JobKind } from "./queue.ts";

declare module "./queue.ts" {
  interface JobPayloads {
    /** Where the previous run stopped (none: documents from the start). */
    "encrypt-stored-objects": { table?: "documents" | "site_media"; afterKey?: string };
  }
}

export const encryptStoredObjectsJob: JobKind<"encrypt-stored-objects"> = {
  name: "encrypt-stored-objects",
  schedule: "*/10 * * * *",
  policy: "stately",
  async run(deps, job) {
    const next = await encryptLegacyObjects(deps, { table: job.data.table ?? "documents", afterKey: job.data.afterKey });
    if (next) await deps.jobs.boss.send("encrypt-stored-objects", next);
  },
};
