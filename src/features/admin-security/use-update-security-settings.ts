import { trpc } from "@/lib/trpc.ts";

export function useUpdateSecuritySettings() {
  const utils = trpc.useUtils();
  return trpc.admin.securitySettings.update.useMutation({ onSuccess: (settings) => utils.admin.securitySettings.get.setData(undefined, settings) });
}
