import { trpc } from "@/lib/trpc.ts";

/** Whom the client's account is assigned to at the firm (by the client person's id, as the page is). */
export function useClientAssignees(userId: string) {
  return trpc.admin.staff.accountAssignees.useQuery({ user_id: userId }, { retry: false });
}

/** The firm's people who could be assigned (the Team list: owners, admins and staff holding the staff right). */
export function useAssignableStaff(enabled: boolean) {
  return trpc.admin.staff.list.useQuery(undefined, { retry: false, enabled });
}

/** People invited to the team and not signed up yet, who can be assigned ahead (docs/decisions.md, "Prepared for invited people"). */
export function useInvitedStaff(enabled: boolean) {
  return trpc.admin.staff.invitations.useQuery(undefined, { retry: false, enabled });
}

export function useSetAssignees() {
  const utils = trpc.useUtils();
  return trpc.admin.staff.setAccountAssignees.useMutation({
    onSuccess: () => Promise.all([utils.admin.staff.accountAssignees.invalidate(), utils.admin.staff.invitations.invalidate()]),
  });
}
