import { trpc } from "@/lib/trpc.ts";

export function useInvitations() {
  return trpc.admin.invitations.list.useQuery({ limit: 100 });
}
