import { trpc } from "@/lib/trpc.ts";
import type { FirmAccount } from "@server/domains/accounts/firm-schemas.ts";

// One hook per change; each refreshes the lists it changes. Forms show the server's refusals (409, 422) themselves.

export function useCreateAccount() {
  const utils = trpc.useUtils();
  return trpc.admin.accounts.create.useMutation({ onSuccess: () => utils.admin.accounts.list.invalidate() });
}

export function useImportAccounts() {
  const utils = trpc.useUtils();
  return trpc.admin.accounts.import.useMutation({
    onSuccess: (result) => {
      if (!result.dry_run) void Promise.all([utils.admin.accounts.list.invalidate(), utils.admin.invitations.list.invalidate()]);
    },
  });
}

/** Changing people changes the account's page, the Clients list and the invitations. */
function useRefreshPeople() {
  const utils = trpc.useUtils();
  return (account: FirmAccount) => {
    utils.admin.accounts.get.setData({ id: account.id }, account);
    void Promise.all([utils.admin.accounts.list.invalidate(), utils.admin.invitations.list.invalidate()]);
  };
}

export function useAddContact() {
  const refresh = useRefreshPeople();
  return trpc.admin.accounts.addContact.useMutation({ onSuccess: refresh });
}

export function useUpdateContact() {
  const refresh = useRefreshPeople();
  return trpc.admin.accounts.updateContact.useMutation({ onSuccess: refresh });
}

export function useRemoveContact() {
  const refresh = useRefreshPeople();
  return trpc.admin.accounts.removeContact.useMutation({ onSuccess: refresh });
}

export function useUpdateAccount() {
  const refresh = useRefreshPeople();
  return trpc.admin.accounts.update.useMutation({ onSuccess: refresh });
}
