import { trpc } from "@/lib/trpc.ts";

/** The firm's retention rules (docs/safeguards.md, "Retention and disposal"). */
export function useRetentionSettings() {
  return trpc.admin.retention.useQuery();
}

/** Saves the rules; what is due changes with them. */
export function useUpdateRetention() {
  const utils = trpc.useUtils();
  return trpc.admin.updateRetention.useMutation({
    onSuccess: (settings) => {
      utils.admin.retention.setData(undefined, settings);
      void utils.admin.retentionDue.invalidate();
    },
  });
}

/** What the daily disposal deletes within the next 30 days, and the holds in place. */
export function useRetentionDue() {
  return trpc.admin.retentionDue.useQuery();
}

export function usePlaceLegalHold() {
  const utils = trpc.useUtils();
  return trpc.admin.placeLegalHold.useMutation({ onSuccess: () => void utils.admin.retentionDue.invalidate() });
}

export function useClearLegalHold() {
  const utils = trpc.useUtils();
  return trpc.admin.clearLegalHold.useMutation({ onSuccess: () => void utils.admin.retentionDue.invalidate() });
}
