import { trpc } from "@/lib/trpc.ts";
import { useLoggedError } from "@/lib/use-logged-error.ts";

/** Every folder of the signed-in user, at all depths (the tree is built on the client). */
export function useFolders() {
  const query = trpc.folders.list.useQuery();
  useLoggedError(query.error, "folders");
  return query;
}
