import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";

/** The firm's private notes on one account, newest first. */
export function useAccountNotes(accountId: string) {
  const query = trpc.admin.accountNotes.list.useQuery({ id: accountId }, { retry: false });
  useAdminLoadFailure(query);
  return query;
}

// Each change refreshes the account's notes; the forms show the server's refusals themselves.

export function useCreateNote(accountId: string) {
  const utils = trpc.useUtils();
  return trpc.admin.accountNotes.create.useMutation({ onSuccess: () => utils.admin.accountNotes.list.invalidate({ id: accountId }) });
}

export function useUpdateNote(accountId: string) {
  const utils = trpc.useUtils();
  return trpc.admin.accountNotes.update.useMutation({ onSuccess: () => utils.admin.accountNotes.list.invalidate({ id: accountId }) });
}

export function useDeleteNote(accountId: string) {
  const utils = trpc.useUtils();
  return trpc.admin.accountNotes.delete.useMutation({ onSuccess: () => utils.admin.accountNotes.list.invalidate({ id: accountId }) });
}
