import { useState } from "react";
import type { PublicUser } from "@server/domains/auth/schemas.ts";
import { Input } from "@/components/ui/input.tsx";
import { RequiredMark } from "@/components/ui/required-mark.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { UnverifiedBadge } from "@/components/ui/unverified-badge.tsx";
import { useClientSearch } from "./use-client-search.ts";

type ClientPickerProps = {
  selected: PublicUser | null;
  onSelect: (client: PublicUser) => void;
  /** Shown until a client is chosen. */
  error?: string;
};

/** The firm's forms pick a client by searching name, username or email: a required radio group. */
export function ClientPicker({ selected, onSelect, error }: ClientPickerProps) {
  const [search, setSearch] = useState("");
  const clients = useClientSearch(search);
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">
        Client
        <RequiredMark />
      </legend>
      <Input
        type="search"
        aria-label="Search clients by name, username or email"
        placeholder="Search clients by name, username or email"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <div className="max-h-48 overflow-y-auto rounded-md border" aria-live="polite" aria-busy={clients.isFetching || undefined}>
        {clients.isPending ? (
          <div className="p-3">
            <Spinner label="Searching clients…" />
          </div>
        ) : clients.clients?.length === 0 ? (
          <p className="p-3 text-sm text-muted-foreground">No clients match your search.</p>
        ) : (
          <ul className="divide-y">
            {clients.clients?.map((user) => (
              <li key={user.id}>
                <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-muted has-checked:bg-accent-soft">
                  <input
                    type="radio"
                    name="client"
                    value={user.id}
                    checked={selected?.id === user.id}
                    onChange={() => onSelect(user)}
                    className="accent-accent"
                  />
                  <span className="min-w-0">
                    <span className="block truncate font-medium">{user.name}</span>
                    <span className="block truncate text-muted-foreground">{user.email}</span>
                    <UnverifiedBadge email_verified={user.email_verified} />
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </div>
      <p className="text-sm wrap-anywhere" aria-live="polite">
        {selected ? (
          <>
            Selected: <span className="font-medium">{selected.name}</span> ({selected.email}){!selected.email_verified && " · unverified account"}
          </>
        ) : (
          error && <span className="text-destructive">{error}</span>
        )}
      </p>
    </fieldset>
  );
}
