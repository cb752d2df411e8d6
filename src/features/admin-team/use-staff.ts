import { trpc } from "@/lib/trpc.ts";

export function useStaff() {
  return trpc.admin.staff.list.useQuery(undefined, { retry: false });
}

export function useStaffInvitations() {
  return trpc.admin.staff.invitations.useQuery(undefined, { retry: false });
}

/** The form shows the server's refusal (403, 409, 422) itself; success refreshes the open invitations. */
export function useInviteStaff() {
  const utils = trpc.useUtils();
  return trpc.admin.staff.invite.useMutation({ onSuccess: () => utils.admin.staff.invitations.invalidate() });
}

export function useRevokeStaffInvitation() {
  const utils = trpc.useUtils();
  return trpc.admin.staff.revokeInvitation.useMutation({ onSettled: () => utils.admin.staff.invitations.invalidate() });
}

/** A change of role, rights or activation; the caller's own `me` is refreshed too (a transfer changes it). */
export function useUpdateStaff() {
  const utils = trpc.useUtils();
  return trpc.admin.staff.update.useMutation({
    onSuccess: () => Promise.all([utils.admin.staff.list.invalidate(), utils.admin.me.invalidate()]),
  });
}

/** A new link for an invitation not yet accepted (the old one stops working); the list shows its new expiry. */
export function useResendStaffInvitation() {
  const utils = trpc.useUtils();
  return trpc.admin.staff.resendInvitation.useMutation({ onSettled: () => utils.admin.staff.invitations.invalidate() });
}
