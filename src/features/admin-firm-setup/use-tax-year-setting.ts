import { trpc } from "@/lib/trpc.ts";

export function useTaxYearSetting() {
  return trpc.admin.firm.taxYear.useQuery();
}

export function useSetTaxYear() {
  const utils = trpc.useUtils();
  return trpc.admin.firm.setTaxYear.useMutation({
    onSuccess: (saved) => {
      utils.admin.firm.taxYear.setData(undefined, saved);
      void utils.firm.taxYear.invalidate();
    },
  });
}
