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
/** How long the browser waits before reopening a dropped stream. */
const RECONNECT_MS = 3_000;

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
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no" });
      let open = true;
      const send = (changed: string) => {
        if (open && (clientId === undefined || changed === clientId)) res.write(`data: ${JSON.stringify({ client_id: changed })}\n\n`);
      };
      const unsubscribe = await deps.messageEvents.subscribe(send);
      const keepAlive = setInterval(() => res.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
      const stop = () => {
        open = false;
        clearInterval(keepAlive);
        unsubscribe();
      };
      res.on("close", stop);
      if (res.destroyed) stop();
      // Listening now: the page knows nothing was missed from here on.
      else res.write(`retry: ${RECONNECT_MS}\nevent: ready\ndata: {}\n\n`);
    };
}
