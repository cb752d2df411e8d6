// Live updates of conversations (docs/decisions.md, "Secure messages"): a change to a client's
// conversation is a NOTIFY in the change's own transaction, so it is heard only once the change
// is committed, by every instance on the database. Each instance LISTENs on one connection of its
// own and hands each notice (the client's id, nothing more) to its open event streams. The same
// channel carries the end of a session (a trigger on `sessions`, migration
// 2026-11-26T0010_stream_limits), so a stream ends on every instance when its session does
// (docs/security.md, "Round 3 (issue 28)").
import type { Logger } from "pino";
import type { DatabaseHandle } from "../../db/database.ts";
import type { MessageEventListener, MessageEvents } from "../../trpc/context.ts";
import { MESSAGES_CHANNEL as CHANNEL } from "./queries.ts";

/** How the trigger on `sessions` says a session ended: this, then the session's id. */
const SESSION_ENDED = "session-ended:";
/**
 * How the trigger on `account_contacts` says a person lost an account (removed, or portal access
 * off; migration 2026-11-26T0200_client_accounts): this, then the account's id, ":" and the person's.
 */
const CONTACT_ENDED = "contact-ended:";
/**
 * How the triggers on `users` and `account_assignees` say what a person of the firm reaches changed
 * (migration 2026-11-26T0570_staff_scope_notices): this, then the person's id.
 */
const SCOPE_CHANGED = "scope-changed:";

/**
 * Open streams one session, and one user across their sessions, may hold on an instance. Each is
 * a connection held open; a page needs one, and a few open tabs share them (the others poll).
 * Counted per instance: the connections they hold are the instance's.
 */
export const MAX_STREAMS_PER_SESSION = 4;
export const MAX_STREAMS_PER_USER = 8;

export function createMessageEvents(database: Pick<DatabaseHandle, "listen">, logger: Logger): MessageEvents {
  const listeners = new Set<MessageEventListener>();
  const bySession = new Map<string, Set<MessageEventListener>>();
  const perUser = new Map<string, number>();
  let closed = false;
  let listening: Promise<(() => Promise<void>) | undefined> | undefined;
  const dispatch = (payload: string | null) => {
    if (payload?.startsWith(SESSION_ENDED)) {
      for (const listener of bySession.get(payload.slice(SESSION_ENDED.length)) ?? []) listener.onSessionEnded();
      return;
    }
    if (payload?.startsWith(CONTACT_ENDED)) {
      const [accountId, userId] = payload.slice(CONTACT_ENDED.length).split(":");
      for (const listener of listeners) if (listener.accountId === accountId && listener.userId === userId) listener.onSessionEnded();
      return;
    }
    if (payload?.startsWith(SCOPE_CHANGED)) {
      const userId = payload.slice(SCOPE_CHANGED.length);
      for (const listener of listeners) if (listener.accountId === null && listener.userId === userId) listener.onScopeChanged?.();
      return;
    }
    for (const listener of listeners) listener.onChange(payload);
  };
  // The connection is opened with the first stream; one that failed is tried again by the next.
  const listen = () =>
    (listening ??= (database.listen?.(CHANNEL, dispatch, () => dispatch(null)) ?? Promise.resolve(undefined)).catch((err: unknown) => {
      logger.warn({ err }, "message events: cannot listen; the pages poll instead");
      listening = undefined;
      return undefined;
    }));
  const remove = (listener: MessageEventListener) => {
    if (!listeners.delete(listener)) return;
    const ofSession = bySession.get(listener.sessionId);
    ofSession?.delete(listener);
    if (ofSession?.size === 0) bySession.delete(listener.sessionId);
    const left = (perUser.get(listener.userId) ?? 1) - 1;
    if (left > 0) perUser.set(listener.userId, left);
    else perUser.delete(listener.userId);
  };
  return {
    async subscribe(listener) {
      if (closed || !(await listen())) return { ok: false, reason: "unavailable" };
      // Counted and added with no await in between, so parallel requests cannot all pass the check.
      const ofSession = bySession.get(listener.sessionId) ?? new Set<MessageEventListener>();
      const ofUser = perUser.get(listener.userId) ?? 0;
      if (ofSession.size >= MAX_STREAMS_PER_SESSION || ofUser >= MAX_STREAMS_PER_USER) return { ok: false, reason: "too-many" };
      listeners.add(listener);
      ofSession.add(listener);
      bySession.set(listener.sessionId, ofSession);
      perUser.set(listener.userId, ofUser + 1);
      return { ok: true, stop: () => remove(listener) };
    },
    async close() {
      closed = true;
      for (const listener of listeners) listener.onShutdown();
      listeners.clear();
      bySession.clear();
      perUser.clear();
      const stop = await listening;
      listening = undefined;
      await stop?.();
    },
  };
}
