import { useAdminLoadFailure } from "@/lib/admin-load-failure.ts";
import { trpc } from "@/lib/trpc.ts";

/** Every key as the public site shows it now, each marked when that is the built-in default. */
export function useSiteContentEditor() {
  const query = trpc.admin.siteContent.editor.useQuery(undefined, { retry: false });
  useAdminLoadFailure(query);
  return query;
}
