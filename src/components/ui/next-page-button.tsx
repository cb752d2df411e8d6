import { Button } from "@/components/ui/button.tsx";

/** Loads the next keyset page of a list; nothing once the last page is in. */
export function NextPageButton({
  pages,
  label,
  className,
}: {
  pages: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  label: string;
  className: string;
}) {
  if (!pages.hasNextPage) return null;
  return (
    <Button variant="outline" size="sm" className={className} disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
      {pages.isFetchingNextPage ? "Loading…" : label}
    </Button>
  );
}
