import { trpc } from "@/lib/trpc.ts";

export function useSecuritySettings() {
  return trpc.admin.securitySettings.get.useQuery();
}
