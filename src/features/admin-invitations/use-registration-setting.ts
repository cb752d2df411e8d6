import { trpc } from "@/lib/trpc.ts";

export function useRegistrationSetting() {
  return trpc.admin.invitations.registration.useQuery();
}
