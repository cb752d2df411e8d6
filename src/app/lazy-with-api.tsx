import { type ComponentType, lazy } from "react";

/**
 * A component loaded on demand together with the tRPC and React Query providers it needs. The
 * landing page renders without them, so its first paint ships neither; the portals, the admin
 * pages and the landing page's forms bring them along.
 */
export function lazyWithApi<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  return lazy(async () => {
    const [{ ApiProvider }, Component] = await Promise.all([import("./api-provider.tsx"), load()]);
    return {
      default: (props: Props) => (
        <ApiProvider>
          <Component {...props} />
        </ApiProvider>
      ),
    };
  });
}
