import { trpc } from "@/lib/trpc.ts";

export function useTaxYearSetting() {
  return trpc.admin.taxYear.useQuery();
}

export function useSetTaxYear() {
  const utils = trpc.useUtils();
  return trpc.admin.setTaxYear.useMutation({
    onSuccess: (saved) => {
      utils.admin.taxYear.setData(undefined, saved);
      void utils.firm.taxYear.invalidate();
    },
  });
}
