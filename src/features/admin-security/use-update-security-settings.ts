import { trpc } from "@/lib/trpc.ts";

export function useUpdateSecuritySettings() {
  const utils = trpc.useUtils();
  return trpc.admin.updateSecuritySettings.useMutation({ onSuccess: (settings) => utils.admin.securitySettings.setData(undefined, settings) });
}
