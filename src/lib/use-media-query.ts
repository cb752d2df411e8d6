import { useCallback, useRef, useSyncExternalStore } from "react";

/**
 * Set on <body> by the scroll lock of Radix's modal parts (dialogs, alert dialogs, menus) while one
 * is open.
 */
const MODAL_OPEN = "data-scroll-locked";

/**
 * Whether a CSS media query matches now, following changes (rotation, window resizing).
 *
 * While a modal dialog is open the answer holds, and the change comes when it closes: the pages
 * switch layouts with it (a table's rows become cards on a phone), and a dialog opened from a row
 * lives in that row, so switching under it would close it and lose what was typed into it (a phone
 * turned sideways with Rename open). docs/decisions.md, "The client on a phone".
 */
export function useMediaQuery(query: string): boolean {
  const held = useRef<boolean | null>(null);
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      const observer = new MutationObserver(onChange);
      observer.observe(document.body, { attributes: true, attributeFilter: [MODAL_OPEN] });
      return () => {
        list.removeEventListener("change", onChange);
        observer.disconnect();
      };
    },
    [query],
  );
  const matches = useCallback(() => {
    if (held.current !== null && document.body.hasAttribute(MODAL_OPEN)) return held.current;
    held.current = window.matchMedia(query).matches;
    return held.current;
  }, [query]);
  return useSyncExternalStore(subscribe, matches);
}
