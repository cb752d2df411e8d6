/*
 * Global set-up runs once per project (vitest.config.ts), all of them in vitest's main process:
 * what several projects of one run need (the template database, the built client) is made by the
 * first, shared with the others through this process-wide registry, and disposed of when the last
 * one's teardown runs.
 */
type Shared = { value: string; users: number; dispose: () => Promise<void> };
type Registry = Map<string, Promise<Shared>>;

const registry: Registry = ((globalThis as { __portalTestSetup?: Registry }).__portalTestSetup ??= new Map());

export async function shareOnce(
  key: string,
  make: () => Promise<{ value: string; dispose: () => Promise<void> }>,
): Promise<{ value: string; release: () => Promise<void> }> {
  let pending = registry.get(key);
  if (!pending) {
    pending = make().then((made) => ({ ...made, users: 0 }));
    registry.set(key, pending);
    // A failed set-up is not cached: each project reports it.
    pending.catch(() => registry.delete(key));
  }
  const shared = await pending;
  shared.users += 1;
  let released = false;
  return {
    value: shared.value,
    release: async () => {
      if (released) return;
      released = true;
      shared.users -= 1;
      if (shared.users > 0) return;
      registry.delete(key);
      await shared.dispose();
    },
  };
}
