// Stored objects whose row never committed (an instance died mid-upload, a removal after a delete
// failed), removed hourly by one instance; the sweep itself knows how old is old enough.
import { sweepOrphanedObjects } from "../storage/sweep-orphaned-objects.ts";
import type { JobKind } from "./queue.ts";

declare module "./queue.ts" {
  interface JobPayloads {
    /** Runs on its schedule and carries nothing. */
    "sweep-orphaned-objects": Record<string, never>;
  }
}

export const sweepOrphanedObjectsJob: JobKind<"sweep-orphaned-objects"> = {
  name: "sweep-orphaned-objects",
  schedule: "41 * * * *",
  async run(deps) {
    const removed = await sweepOrphanedObjects(deps);
    if (removed > 0) deps.logger.info({ removed }, "orphaned stored objects removed");
  },
};
