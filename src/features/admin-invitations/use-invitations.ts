import { trpc } from "@/lib/trpc.ts";

export function useInvitations() {
  return trpc.admin.invitations.useQuery({ limit: 100 });
}
