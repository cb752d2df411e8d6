import { type RefObject, useEffect } from "react";

/**
 * Keeps the keyboard's place inside `container` when what had focus goes away under it: a button
 * that turns disabled while it works (Upload) or is replaced by its result (Mark submitted), or
 * the whole part folding away. Without this the browser drops focus to the page's start, and a
 * keyboard or screen-reader user starts over from the top.
 *
 * Focus moves to the nearest part still there that held the lost element (an item of a list, a
 * region), else to `fallback()`. A button that was only disabled gets focus back when it works
 * again, if focus has not gone elsewhere meanwhile. It watches the DOM, so it needs nothing from
 * the components inside.
 */
export function useFocusRescue(container: RefObject<HTMLElement | null>, fallback: () => HTMLElement | null): void {
  useEffect(() => {
    const root = container.current;
    if (!root) return;
    let last: { element: HTMLElement; holders: HTMLElement[] } | null = null;
    let parked: { element: HTMLElement; at: HTMLElement } | null = null;

    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof HTMLElement) || !root.contains(target)) {
        last = null;
        parked = null;
        return;
      }
      const holders: HTMLElement[] = [];
      for (let node = target.parentElement; node && node !== root; node = node.parentElement) {
        if (node.matches("li, [role=region], section, [aria-label], [aria-labelledby]")) holders.push(node);
      }
      last = { element: target, holders };
      if (parked && target !== parked.at) parked = null;
    };

    const focusLost = () => document.activeElement === null || document.activeElement === document.body;

    const observer = new MutationObserver(() => {
      if (parked && parked.element.isConnected && !isDisabled(parked.element) && document.activeElement === parked.at) {
        const { element } = parked;
        parked = null;
        element.focus();
        return;
      }
      if (!last) return;
      const lost = last;
      const gone = !lost.element.isConnected;
      if (!gone && !isDisabled(lost.element)) return;
      // A disabled button may still hold focus for a moment: the browser lets go of it at its next rendering.
      if (!focusLost() && document.activeElement !== lost.element) return;
      const at = lost.holders.find((holder) => holder.isConnected && root.contains(holder)) ?? fallback();
      if (!at) return;
      if (!at.matches("a[href], button, input, select, textarea, [tabindex]")) at.tabIndex = -1;
      at.focus();
      parked = gone ? null : { element: lost.element, at };
    });

    document.addEventListener("focusin", onFocusIn);
    observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["disabled"] });
    return () => {
      document.removeEventListener("focusin", onFocusIn);
      observer.disconnect();
    };
  }, [container, fallback]);
}

function isDisabled(element: HTMLElement): boolean {
  return element.matches(":disabled");
}
