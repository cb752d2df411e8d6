import { useEffect, useState } from "react";

/**
 * False until the page has loaded and the browser is idle: for parts the first paint does not
 * need (the Toaster), whose code and requests would compete with it on slow phones.
 */
export function usePageLoaded(): boolean {
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    // Safari has no requestIdleCallback; a task after the load event is the next best thing.
    const idle = typeof window.requestIdleCallback === "function";
    let handle: number | undefined;
    const whenIdle = () => {
      handle = idle ? window.requestIdleCallback(() => setLoaded(true)) : window.setTimeout(() => setLoaded(true));
    };
    if (document.readyState === "complete") whenIdle();
    else window.addEventListener("load", whenIdle, { once: true });
    return () => {
      window.removeEventListener("load", whenIdle);
      if (handle === undefined) return;
      if (idle) window.cancelIdleCallback(handle);
      else window.clearTimeout(handle);
    };
  }, []);

  return loaded;
}
