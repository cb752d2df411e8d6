// The live message streams (server-sent events): the client's for their own conversation, the
// firm's for every conversation. An event says only which conversation changed ({"client_id"});
// the page then asks for it through the ordinary, authorised calls. A stream is open only to a
// signed-in caller of the right kind, and only to a request that asks for one (Accept:
// text/event-stream, as EventSource sends); others get 406 rather than an answer that never ends.
// A session and a user hold a few streams at most (429 past them), and a stream ends when its
// session does: at once when it is ended on any instance, at its expiry otherwise
// (docs/security.md, "Round 3 (issue 28)").
import type { RequestHandler } from "express";
import { ADMIN_IDLE_MS, type Session } from "../auth/session.ts";
import type { Db } from "../db/types.ts";
import { createCaller } from "../domains/_app.ts";
import { accountExistsForFirm } from "../domains/accounts/queries.ts";
import type { AppDeps } from "../trpc/context.ts";
import { findStaffAccess } from "../auth/staff-access.ts";
import { type FirmScope, firmScopeOf } from "../trpc/firm-scope.ts";
import { mayUse } from "../trpc/staff-rights.ts";
import { toHttpError } from "./errors.ts";
import { createRequestContext } from "./handler.ts";

/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 25_000;
/** How long the browser waits before reopening a dropped stream: 3 s and up to 5 s more. */
const RECONNECT_MS = 3_000;
const RECONNECT_SPREAD_MS = 5_000;
/** A stream lives this long at most, so the session is checked again this often. */
const MAX_STREAM_MS = 5 * 60_000;

export const TOO_MANY_STREAMS =
  "Too many live update connections are open for this account; close some portal tabs. This page checks for new messages every few seconds instead.";

/** How long the stream may last: until the session's expiry (an admin's: its idle limit too), at most MAX_STREAM_MS. */
function lifetimeOf(session: Session, now: Date): number {
  const ends = Math.min(session.expiresAt.getTime(), session.kind === "admin" ? session.lastUsedAt.getTime() + ADMIN_IDLE_MS : Infinity);
  return Math.max(0, Math.min(MAX_STREAM_MS, ends - now.getTime()));
}

async function sessionExists(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom("sessions").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
}

export function messageEventStream(audience: "client" | "firm") {
  return (deps: AppDeps): RequestHandler =>
    async (req, res) => {
      const ctx = createRequestContext(deps, req, res);
      const caller = createCaller(ctx);
      let clientId: string | undefined;
      let scope: FirmScope = { all: true };
      /** The latest reading of the person's reach after a change of it (resolved when none is under way). */
      let scopeRead: Promise<void> = Promise.resolve();
      try {
        if (audience === "client") clientId = (await caller.accounts.current()).id;
        else {
          await caller.admin.messages.unread();
          const me = await caller.admin.me();
          scope = firmScopeOf({ role: me.role, rights: me.rights }, me.id);
        }
      } catch (err) {
        const { status, detail } = toHttpError(err, deps.logger);
        res.status(status).json({ detail });
        return;
      }
      if (!req.headers.accept?.includes("text/event-stream")) {
        res.status(406).json({ detail: "This is an event stream: ask for text/event-stream" });
        return;
      }
      const session = (await ctx.resolveSession())!.session;
      let open = false;
      const endIfSessionGone = async () => {
        const exists = await sessionExists(deps.db, session.id).catch(() => true);
        if (!exists) res.end();
      };
      const subscription = await deps.messageEvents.subscribe({
        sessionId: session.id,
        userId: session.userId,
        accountId: clientId ?? null,
        onChange: (changed) => {
          if (!open) return;
          // null: this instance missed notices (a session's end among them, perhaps); the page asks
          // again for everything it shows.
          if (changed === null) {
            res.write("event: ready\ndata: {}\n\n");
            void endIfSessionGone();
          } else if (clientId !== undefined) {
            // The account's conversation, or the person's own private one: another person's private
            // conversation is not announced to them (docs/decisions.md, "Private conversations").
            if (changed === clientId || changed === `${clientId}:${session.userId}`)
              res.write(`data: ${JSON.stringify({ client_id: clientId })}\n\n`);
          } else {
            // A private conversation's notice names its account first (messages/queries.ts).
            const accountId = changed.split(":")[0]!;
            // Heard after any change of the person's reach before it (onScopeChanged), so a
            // conversation they no longer reach is never announced with the old reach.
            void scopeRead.then(() => {
              if (!open) return;
              if (scope.all) {
                res.write(`data: ${JSON.stringify({ client_id: accountId })}\n\n`);
                return;
              }
              // A staff member on assigned accounts hears of those conversations only (docs/security.md,
              // "Assigned accounts"), read at each change so an unassignment holds at once.
              void accountExistsForFirm(deps.db, scope, accountId)
                .then((reached) => {
                  if (reached && open) res.write(`data: ${JSON.stringify({ client_id: accountId })}\n\n`);
                })
                // A failed check sends nothing: the page still refreshes on its own every few seconds.
                .catch(() => undefined);
            });
          }
        },
        onSessionEnded: () => res.end(),
        // The person's role, rights or assignments changed: read them again now, not at the next
        // reconnect. Without the messages right the stream ends (its reopening is refused with 403);
        // otherwise it goes on with the new reach, and "ready" makes the page ask again for the
        // conversations it shows, so one no longer reached leaves the list at once. A failed read
        // ends the stream: the reopened one is checked from scratch.
        onScopeChanged: () => {
          scopeRead = findStaffAccess(deps.db, session.userId)
            .then((staff) => {
              if (!staff || !mayUse(staff, "messages")) {
                res.end();
                return;
              }
              scope = firmScopeOf(staff, session.userId);
              if (open) res.write("event: ready\ndata: {}\n\n");
            })
            .catch(() => {
              res.end();
            });
        },
        onShutdown: () => res.end(),
      });
      if (!subscription.ok) {
        if (subscription.reason === "too-many") res.status(429).json({ detail: TOO_MANY_STREAMS });
        else res.status(503).json({ detail: "Live updates are not available right now; the page checks for new messages every few seconds instead" });
        return;
      }
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no" });
      open = true;
      const keepAlive = setInterval(() => res.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
      // The end of the session is heard at once (onSessionEnded); its expiry is not an event, so the
      // stream ends then (or after MAX_STREAM_MS), and the browser's reopened stream is checked again.
      const lifetime = setTimeout(() => res.end(), lifetimeOf(session, deps.now()));
      const stop = () => {
        open = false;
        clearInterval(keepAlive);
        clearTimeout(lifetime);
        subscription.stop();
      };
      res.on("close", stop);
      if (res.destroyed) {
        stop();
        return;
      }
      // Listening now: the page knows nothing was missed from here on. Reconnects are spread out,
      // so a restart does not bring every page back in the same second.
      res.write(`retry: ${RECONNECT_MS + Math.floor(Math.random() * RECONNECT_SPREAD_MS)}\nevent: ready\ndata: {}\n\n`);
      // A session ended between its check above and the subscription was not heard: look once more.
      await endIfSessionGone();
    };
}
