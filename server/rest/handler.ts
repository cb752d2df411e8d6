import type { Request, Response } from "express";
import { deviceCookie, readCookie, readSessionToken, sessionCookies, signInBrowserCookieName } from "../auth/cookies.ts";
import { type AppDeps, type ContextOptions, createContextInner } from "../trpc/context.ts";

/** The context of one HTTP request, shared by the tRPC adapter and the REST routes. */
export function createRequestContext(deps: AppDeps, req: Request, res: Response, opts: Pick<ContextOptions, "answersSessionToken"> = {}) {
  const { token, source } = readSessionToken(req, deps.config);
  const cookies = sessionCookies(res, deps.config, deps.now);
  return createContextInner({
    deps,
    sessionToken: token,
    ip: req.ip,
    userAgent: req.headers["user-agent"] ?? null,
    // A Bearer client manages its own token; only a cookie session gets its cookie renewed.
    cookies: source === "bearer" ? { set() {}, clear: cookies.clear } : cookies,
    signInBrowserSecret: readCookie(req, signInBrowserCookieName(deps.config)) ?? null,
    deviceCookie: deviceCookie(req, res, deps.config),
    clientGone: once(() => watchClient(req, res)),
    answersSessionToken: opts.answersSessionToken,
  });
}

/**
 * The client has gone when it half-closes the connection (Node's server then drops the request
 * too), the earliest sign, or when the response closes before it finished. Not req's 'close':
 * since Node 16 that fires as soon as the body has been read.
 */
function watchClient(req: Request, res: Response): AbortSignal {
  const gone = new AbortController();
  const socket = req.socket;
  const onGone = () => {
    if (!res.writableFinished) gone.abort();
  };
  if (socket.readableEnded || socket.destroyed) onGone();
  socket.once("end", onGone);
  res.once("close", () => {
    socket.off("end", onGone);
    onGone();
  });
  return gone.signal;
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
