import { useState } from "react";
import { keepPreviousData } from "@tanstack/react-query";
import type { FirmAccount } from "@server/domains/accounts/firm-schemas.ts";
import { Input } from "@/components/ui/input.tsx";
import { RequiredMark } from "@/components/ui/required-mark.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { trpc } from "@/lib/trpc.ts";
import { useDebouncedValue } from "@/lib/use-debounced-value.ts";

const SHOWN = 8;

/** What a form keeps of the picked account: its id for the request, its name and people for the page. */
export type PickedAccount = { id: string; name: string; people: string };

/** The account's people by name, for the line under its name ("" when it has none yet or only its own name). */
export function accountPeople(account: Pick<FirmAccount, "name" | "contacts">): string {
  return account.contacts
    .map((c) => c.name || c.email)
    .filter((name) => name && name !== account.name)
    .join(", ");
}

type AccountPickerProps = {
  selected: PickedAccount | null;
  onSelect: (account: PickedAccount) => void;
  /** Shown until an account is chosen. */
  error?: string;
};

/**
 * The firm's forms that send work to a client pick the client account, not one of its people: work
 * belongs to the account, which every person of it opens (docs/decisions.md, "The firm's paths take
 * the account"). Each account shows its household or business name, with its people beneath; a
 * search matches either, within the accounts the asker reaches.
 */
export function AccountPicker({ selected, onSelect, error }: AccountPickerProps) {
  const [search, setSearch] = useState("");
  const q = useDebouncedValue(search.trim(), 300);
  const accounts = trpc.admin.accounts.list.useQuery({ q: q || undefined, limit: SHOWN }, { placeholderData: keepPreviousData, retry: false });
  const items = accounts.data?.items ?? [];
  return (
    <fieldset className="grid min-w-0 gap-2">
      <legend className="mb-2 text-sm font-medium">
        Client
        <RequiredMark />
      </legend>
      <Input
        type="search"
        autoComplete="off"
        aria-label="Search clients by account name, person or email"
        placeholder="Search by account name, person or email"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <div className="max-h-56 overflow-y-auto rounded-md border" aria-live="polite" aria-busy={accounts.isFetching || undefined}>
        {accounts.isPending ? (
          <div className="p-3">
            <Spinner label="Searching clients…" />
          </div>
        ) : items.length === 0 ? (
          <p className="p-3 text-sm text-muted-foreground">No clients match your search.</p>
        ) : (
          <ul className="divide-y" aria-label="Client accounts">
            {items.map((account) => {
              const people = accountPeople(account);
              return (
                <li key={account.id}>
                  <label className="flex min-h-11 cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-muted has-checked:bg-accent-soft">
                    <input
                      type="radio"
                      name="client-account"
                      value={account.id}
                      checked={selected?.id === account.id}
                      onChange={() => onSelect({ id: account.id, name: account.name, people })}
                      className="size-4 accent-accent"
                    />
                    <span className="grid min-w-0">
                      <span className="flex min-w-0 items-center gap-2">
                        <span className="truncate font-medium">{account.name}</span>
                        {account.kind !== "individual" && (
                          <span className="shrink-0 text-xs text-muted-foreground">{account.kind === "household" ? "Household" : "Business"}</span>
                        )}
                      </span>
                      {people && <span className="truncate text-muted-foreground">{people}</span>}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      {accounts.data && accounts.data.total > items.length && (
        <p className="text-xs text-muted-foreground">
          Showing {items.length} of {accounts.data.total}: search to find the others.
        </p>
      )}
      <p className="text-sm wrap-anywhere" aria-live="polite">
        {selected ? (
          <>
            Selected: <span className="font-medium">{selected.name}</span>
            {selected.people && ` (${selected.people})`}
          </>
        ) : (
          error && <span className="text-destructive">{error}</span>
        )}
      </p>
    </fieldset>
  );
}
