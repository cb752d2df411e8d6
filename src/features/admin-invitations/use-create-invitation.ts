import { trpc } from "@/lib/trpc.ts";

/** The form shows the server's refusal (409, 422) itself; success refreshes the list. */
export function useCreateInvitation() {
  const utils = trpc.useUtils();
  return trpc.admin.invitations.create.useMutation({ onSuccess: () => utils.admin.invitations.list.invalidate() });
}
