import type { ListPageInput, Page } from "./admin/schemas.ts";

/**
 * One page of a firm-wide list (docs/decisions.md, Admin lists): the list procedures take an offset
 * as `cursor`; the next page starts where this one ended. Shared by the domains whose admin lists page.
 */
export async function listPage<T>(
  input: ListPageInput,
  load: (w: { q?: string; limit: number; offset: number }) => Promise<{ items: T[]; total: number; totalCapped?: boolean }>,
): Promise<Page<T>> {
  const offset = input.cursor ?? 0;
  const { items, total, totalCapped } = await load({ q: input.q || undefined, limit: input.limit, offset });
  const end = offset + items.length;
  const more = totalCapped ? items.length === input.limit : end < total;
  return { items, total, ...(totalCapped && { totalCapped }), nextCursor: items.length > 0 && more ? end : null };
}
