import { trpc } from "@/lib/trpc.ts";
import { useLoggedError } from "@/lib/use-logged-error.ts";

/** How much of their quota the client uses; the upload and delete hooks invalidate it. */
export function useStorageUsage() {
  const query = trpc.documents.usage.useQuery();
  useLoggedError(query.error, "storage usage");
  return query;
}
