/**
 * A query procedure without input, over plain fetch: the landing page's reads, which must not
 * wait for the tRPC client, React Query and superjson (they load with the portals and the
 * landing page's forms; see app/lazy-with-api.tsx). superjson sends plain JSON values unchanged
 * in `json`, so callers get exactly what the procedure returned as long as it holds no Date, Map,
 * Set or BigInt.
 */
export async function publicQuery<T>(procedure: string): Promise<T> {
  const response = await fetch(`/trpc/${procedure}`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${procedure} answered ${response.status}`);
  const body = (await response.json()) as { result: { data: { json: T } } };
  return body.result.data.json;
}
