import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";

/** The firm's private notes on one account, newest first. */
export function useAccountNotes(accountId: string) {
  const query = trpc.admin.accountNotes.useQuery({ id: accountId }, { retry: false });
  useAdminLoadFailure(query);
  return query;
}

// Each change refreshes the account's notes; the forms show the server's refusals themselves.

export function useCreateNote(accountId: string) {
  const utils = trpc.useUtils();
  return trpc.admin.createAccountNote.useMutation({ onSuccess: () => utils.admin.accountNotes.invalidate({ id: accountId }) });
}

export function useUpdateNote(accountId: string) {
  const utils = trpc.useUtils();
  return trpc.admin.updateAccountNote.useMutation({ onSuccess: () => utils.admin.accountNotes.invalidate({ id: accountId }) });
}

export function useDeleteNote(accountId: string) {
  const utils = trpc.useUtils();
  return trpc.admin.deleteAccountNote.useMutation({ onSuccess: () => utils.admin.accountNotes.invalidate({ id: accountId }) });
}
