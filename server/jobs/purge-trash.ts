// Documents in the trash for more than 30 days are deleted for good, hourly, by one instance, through
// the retention disposal (retention/service.ts): an account at a time, none under a legal hold, rows
// in batches that each re-check the age (a restore in between wins) with a receipt in the trail,
// stored objects after each batch committed (documents/trash.ts, purgeExpiredTrash).
import { purgeExpiredTrash } from "../domains/documents/trash.ts";
import type { JobKind } from "./queue.ts";

declare module "./queue.ts" {
  interface JobPayloads {
    /** Runs on its schedule and carries nothing. */
    "purge-trash": Record<string, never>;
  }
}

export const purgeTrashJob: JobKind<"purge-trash"> = {
  name: "purge-trash",
  schedule: "29 * * * *",
  async run(deps) {
    const purged = await purgeExpiredTrash(deps);
    if (purged > 0) deps.logger.info({ purged }, "documents purged from the trash");
  },
};
