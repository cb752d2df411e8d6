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

/** What a stream hears: a conversation that changed (the client's id), or null for "anything may have changed". */
export type MessageEventListener = { onChange: (clientId: string | null) => void; onShutdown: () => void };

export type MessageEvents = {
  /**
   * Calls `onChange` with the client's id of each conversation that changes, and with null after the
   * instance missed notices (its connection to the database was lost); resolves to the way to stop,
   * or to null when this instance cannot listen (the page then polls).
   */
  subscribe(listener: MessageEventListener): Promise<(() => void) | null>;
  /** Ends every stream (their browsers reconnect, to another instance) and stops listening. */
  close(): Promise<void>;
};

export function createMessageEvents(database: Pick<DatabaseHandle, "listen">, logger: Logger): MessageEvents {
  const listeners = new Set<MessageEventListener>();
  let closed = false;
  let listening: Promise<(() => Promise<void>) | undefined> | undefined;
  const dispatch = (clientId: string | null) => {
    for (const listener of listeners) listener.onChange(clientId);
  };
  // The connection is opened with the first stream; one that failed is tried again by the next.
  const listen = () =>
    (listening ??= (database.listen?.(CHANNEL, dispatch, () => dispatch(null)) ?? Promise.resolve(undefined)).catch((err: unknown) => {
      logger.warn({ err }, "message events: cannot listen; the pages poll instead");
      listening = undefined;
      return undefined;
    }));
  return {
    async subscribe(listener) {
      if (closed || !(await listen())) return null;
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
      for (const listener of listeners) listener.onShutdown();
      listeners.clear();
      const stop = await listening;
      listening = undefined;
      await stop?.();
    },
  };
}
