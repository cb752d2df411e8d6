// The live message streams (server-sent events): the client's for their own conversation, the
// firm's for every conversation. An event says only which conversation changed ({"client_id"});
// the page then asks for it through the ordinary, authorised calls. A stream is open only to a
// signed-in caller of the right kind, and only to a request that asks for one (Accept:
// text/event-stream, as EventSource sends); others get 406 rather than an answer that never ends.
import type { RequestHandler } from "express";
import { createCaller } from "../routers/_app.ts";
import type { AppDeps } from "../trpc/context.ts";
import { toHttpError } from "./errors.ts";
import { createRequestContext } from "./handler.ts";

/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 25_000;
/** How long the browser waits before reopening a dropped stream: 3 s and up to 5 s more. */
const RECONNECT_MS = 3_000;
const RECONNECT_SPREAD_MS = 5_000;
/** A stream lives this long at most, so the session is checked again this often. */
const MAX_STREAM_MS = 5 * 60_000;

export function messageEventStream(audience: "client" | "firm") {
  return (deps: AppDeps): RequestHandler =>
    async (req, res) => {
      const ctx = createRequestContext(deps, req, res);
      const caller = createCaller(ctx);
      let clientId: string | undefined;
      try {
        if (audience === "client") clientId = (await caller.auth.me()).id;
        else await caller.admin.messagesUnread();
      } catch (err) {
        const { status, detail } = toHttpError(err, deps.logger);
        res.status(status).json({ detail });
        return;
      }
      if (!req.headers.accept?.includes("text/event-stream")) {
        res.status(406).json({ detail: "This is an event stream: ask for text/event-stream" });
        return;
      }
      let open = false;
      const unsubscribe = await deps.messageEvents.subscribe({
        onChange: (changed) => {
          if (!open) return;
          // null: this instance missed notices; the page asks again for everything it shows.
          if (changed === null) res.write("event: ready\ndata: {}\n\n");
          else if (clientId === undefined || changed === clientId) res.write(`data: ${JSON.stringify({ client_id: changed })}\n\n`);
        },
        onShutdown: () => res.end(),
      });
      if (!unsubscribe) {
        res.status(503).json({ detail: "Live updates are not available right now; the page checks for new messages every few seconds instead" });
        return;
      }
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no" });
      open = true;
      const keepAlive = setInterval(() => res.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
      // The session was checked when the stream opened; the browser reopens the stream after this,
      // and a session ended (signed out, revoked, idle) meanwhile is then refused.
      const lifetime = setTimeout(() => res.end(), MAX_STREAM_MS);
      const stop = () => {
        open = false;
        clearInterval(keepAlive);
        clearTimeout(lifetime);
        unsubscribe();
      };
      res.on("close", stop);
      if (res.destroyed) stop();
      // Listening now: the page knows nothing was missed from here on. Reconnects are spread out,
      // so a restart does not bring every page back in the same second.
      else res.write(`retry: ${RECONNECT_MS + Math.floor(Math.random() * RECONNECT_SPREAD_MS)}\nevent: ready\ndata: {}\n\n`);
    };
}
