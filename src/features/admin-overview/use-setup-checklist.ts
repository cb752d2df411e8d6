import { trpc } from "@/lib/trpc.ts";

/** Asked again each time the Overview opens: the steps tick themselves as the firm does them elsewhere. */
export function useSetupChecklist() {
  return trpc.admin.firm.setupChecklist.useQuery(undefined, { staleTime: 0, refetchOnMount: "always" });
}

export function useHideSetupChecklist() {
  const utils = trpc.useUtils();
  return trpc.admin.firm.setSetupChecklistHidden.useMutation({
    onSuccess: (checklist) => utils.admin.firm.setupChecklist.setData(undefined, checklist),
  });
}
