import { keepPreviousData } from "@tanstack/react-query";
import { trpc } from "@/lib/trpc.ts";
import { useDebouncedValue } from "@/lib/use-debounced-value.ts";

/** Clients (not admins) matching the typed name, username or email, for picking one. */
export function useClientSearch(search: string) {
  const q = useDebouncedValue(search.trim(), 300);
  const query = trpc.admin.users.useQuery({ q: q || undefined, limit: 8 }, { placeholderData: keepPreviousData, retry: false });
  return { ...query, clients: query.data?.items.filter((user) => !user.is_admin) };
}
