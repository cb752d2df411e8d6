import { useEffect, useRef, useState } from "react";

/**
 * Listens to a server-sent events stream (same origin, with the session cookie) and calls
 * `onEvent` for each event (null: not yet, say until the user is known). Answers whether the stream is open: while it is not (not yet, or
 * dropped and the browser retrying), callers poll instead.
 */
export function useLiveEvents(url: string | null, onEvent: (data: unknown) => void): boolean {
  const [open, setOpen] = useState(false);
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  useEffect(() => {
    if (url === null) return;
    const source = new EventSource(url, { withCredentials: true });
    source.onopen = () => setOpen(true);
    // Sent once the server listens, also after a reconnect: what changed meanwhile is asked for again.
    source.addEventListener("ready", () => handler.current(null));
    source.onerror = () => setOpen(false);
    source.onmessage = (event: MessageEvent<string>) => {
      try {
        handler.current(JSON.parse(event.data));
      } catch {
        handler.current(null);
      }
    };
    return () => {
      source.close();
      setOpen(false);
    };
  }, [url]);
  return open;
}
