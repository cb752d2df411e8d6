import { trpc } from "@/lib/trpc.ts";

export function useStaff() {
  return trpc.admin.staff.useQuery(undefined, { retry: false });
}

export function useStaffInvitations() {
  return trpc.admin.staffInvitations.useQuery(undefined, { retry: false });
}

/** The form shows the server's refusal (403, 409, 422) itself; success refreshes the open invitations. */
export function useInviteStaff() {
  const utils = trpc.useUtils();
  return trpc.admin.inviteStaff.useMutation({ onSuccess: () => utils.admin.staffInvitations.invalidate() });
}

export function useRevokeStaffInvitation() {
  const utils = trpc.useUtils();
  return trpc.admin.revokeStaffInvitation.useMutation({ onSettled: () => utils.admin.staffInvitations.invalidate() });
}

/** A change of role, rights or activation; the caller's own `me` is refreshed too (a transfer changes it). */
export function useUpdateStaff() {
  const utils = trpc.useUtils();
  return trpc.admin.updateStaff.useMutation({
    onSuccess: () => Promise.all([utils.admin.staff.invalidate(), utils.admin.me.invalidate()]),
  });
}

/** A new link for an invitation not yet accepted (the old one stops working); the list shows its new expiry. */
export function useResendStaffInvitation() {
  const utils = trpc.useUtils();
  return trpc.admin.resendStaffInvitation.useMutation({ onSettled: () => utils.admin.staffInvitations.invalidate() });
}
