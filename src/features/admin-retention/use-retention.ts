import { trpc } from "@/lib/trpc.ts";
import type { AccountLegalHold } from "@server/domains/retention/schemas.ts";

/** The firm's retention rules (docs/safeguards.md, "Retention and disposal"). */
export function useRetentionSettings() {
  return trpc.admin.retention.get.useQuery();
}

/** Saves the rules; what is due changes with them. */
export function useUpdateRetention() {
  const utils = trpc.useUtils();
  return trpc.admin.retention.update.useMutation({
    onSuccess: (settings) => {
      utils.admin.retention.get.setData(undefined, settings);
      void utils.admin.retention.due.invalidate();
    },
  });
}

/** What the daily disposal deletes within the next 30 days, and the holds in place. */
export function useRetentionDue() {
  return trpc.admin.retention.due.useQuery();
}

/** One account's hold, or null (the client record's card). */
export function useLegalHold(accountId: string) {
  return trpc.admin.retention.legalHold.useQuery({ id: accountId });
}

/** Places or lifts a hold: the account's card and the list of what is due change with it. */
function useHoldChanged() {
  const utils = trpc.useUtils();
  return (result: AccountLegalHold) => {
    utils.admin.retention.legalHold.setData({ id: result.account_id }, result);
    void utils.admin.retention.due.invalidate();
  };
}

export function usePlaceLegalHold() {
  return trpc.admin.retention.placeLegalHold.useMutation({ onSuccess: useHoldChanged() });
}

export function useClearLegalHold() {
  return trpc.admin.retention.clearLegalHold.useMutation({ onSuccess: useHoldChanged() });
}
