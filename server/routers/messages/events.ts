// Live updates of conversations (docs/decisions.md, "Secure messages"): a change to a client's
// conversation is a NOTIFY in the change's own transaction, so it is heard only once the change
// is committed, by every instance on the database. Each instance LISTENs on one connection of its
// own and hands each notice (the client's id, nothing more) to its open event streams.
import { sql } from "kysely";
import type { Logger } from "pino";
import type { DatabaseHandle } from "../../db/database.ts";
import type { Db } from "../../db/types.ts";

const CHANNEL = "portal_messages";

/** Tells every instance that the client's conversation changed, when `tx` commits. */
export async function notifyConversationChanged(tx: Db, clientId: string): Promise<void> {
  await sql`select pg_notify(${CHANNEL}, ${clientId})`.execute(tx);
}

export type MessageEvents = {
  /** Calls `listener` with the client's id of each conversation that changes; resolves once listening. */
  subscribe(listener: (clientId: string) => void): Promise<() => void>;
  close(): Promise<void>;
};

export function createMessageEvents(database: Pick<DatabaseHandle, "listen">, logger: Logger): MessageEvents {
  const listeners = new Set<(clientId: string) => void>();
  let listening: Promise<(() => Promise<void>) | undefined> | undefined;
  const dispatch = (clientId: string) => {
    for (const listener of listeners) listener(clientId);
  };
  // The connection is opened with the first stream; one that failed is tried again by the next.
  const listen = () =>
    (listening ??= (database.listen?.(CHANNEL, dispatch) ?? Promise.resolve(undefined)).catch((err: unknown) => {
      logger.warn({ err }, "message events: cannot listen; the pages poll instead");
      listening = undefined;
      return undefined;
    }));
  return {
    async subscribe(listener) {
      listeners.add(listener);
      await listen();
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      const stop = await listening;
      listening = undefined;
      await stop?.();
    },
  };
}
