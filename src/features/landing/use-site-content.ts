import { trpc } from "@/lib/trpc.ts";

/** The public site content (stored values over the defaults) and a reader that never throws. */
export function useSiteContent() {
  const query = trpc.site.content.useQuery(undefined, { staleTime: 5 * 60_000 });
  const content = query.data;
  return {
    isPending: query.isPending,
    /** The value of section.key, or "" while loading or when absent. */
    value: (section: string, key: string): string => content?.[section]?.[key]?.value ?? "",
  };
}

export type SiteContentReader = ReturnType<typeof useSiteContent>["value"];
