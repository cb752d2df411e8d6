import { useEffect, useRef, useState } from "react";

/**
 * Listens to a server-sent events stream (same origin, with the session cookie) and calls
 * `onEvent` for each event (null: not yet, say until the user is known). Answers whether the stream is open: while it is not (not yet, or
 * dropped and the browser retrying), callers poll instead.
 */
const RETRY_CLOSED_MS = 30_000;

export function useLiveEvents(url: string | null, onEvent: (data: unknown) => void): boolean {
  const [open, setOpen] = useState(false);
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  // The browser retries a dropped stream by itself, but gives up for good on a refusal (a 503
  // while the database is away, a proxy's 502): then a new stream is tried after a while.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (url === null) return;
    const source = new EventSource(url, { withCredentials: true });
    let again: ReturnType<typeof setTimeout> | undefined;
    source.onopen = () => setOpen(true);
    // Sent once the server listens, also after a reconnect: what changed meanwhile is asked for again.
    source.addEventListener("ready", () => handler.current(null));
    source.onerror = () => {
      setOpen(false);
      if (source.readyState === EventSource.CLOSED)
        again = setTimeout(() => setAttempt((n) => n + 1), RETRY_CLOSED_MS + Math.random() * RETRY_CLOSED_MS);
    };
    source.onmessage = (event: MessageEvent<string>) => {
      try {
        handler.current(JSON.parse(event.data));
      } catch {
        handler.current(null);
      }
    };
    return () => {
      clearTimeout(again);
      source.close();
      setOpen(false);
    };
  }, [url, attempt]);
  return open;
}
