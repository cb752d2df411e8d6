import { useRef } from "react";

/*
 * Radix returns focus to a dialog's Trigger when it closes. Dialogs opened from state (a
 * timer, a link inside another dialog, a button that is not a Trigger) have none, so focus
 * fell to <body> and keyboard and screen-reader users lost their place. These handlers
 * remember what had focus when the content opened and give it back on close.
 */

/** What each open dialog would return focus to, best first; read when a dialog opens from inside another. */
const returnTargetsByContent = new WeakMap<Element, HTMLElement[]>();

function isFocusable(element: HTMLElement): boolean {
  return element.isConnected && element !== document.body && !element.closest("[inert]") && !element.hasAttribute("disabled");
}

type AutoFocusHandler = (event: Event) => void;

export function useReturnFocus(handlers: { onOpenAutoFocus?: AutoFocusHandler; onCloseAutoFocus?: AutoFocusHandler }) {
  const returnTargets = useRef<HTMLElement[]>([]);

  // Radix's FocusScope fires this before it moves focus inside, so activeElement is still the opener.
  const onOpenAutoFocus = (event: Event) => {
    const opener = document.activeElement;
    const targets: HTMLElement[] = [];
    if (opener instanceof HTMLElement && opener !== document.body) {
      targets.push(opener);
      // Opened from inside another dialog that is closing (Forgot your password?, Back to Login):
      // once that opener is gone, fall back to where the other dialog would have returned.
      const ownerContent = opener.closest('[role="dialog"], [role="alertdialog"]');
      if (ownerContent) targets.push(...(returnTargetsByContent.get(ownerContent) ?? []));
    }
    returnTargets.current = targets.filter((target) => target.isConnected);
    if (event.currentTarget instanceof Element) returnTargetsByContent.set(event.currentTarget, returnTargets.current);
    handlers.onOpenAutoFocus?.(event);
  };

  const onCloseAutoFocus = (event: Event) => {
    handlers.onCloseAutoFocus?.(event);
    if (event.defaultPrevented) return;
    const active = document.activeElement;
    // Another dialog opened while this one was animating out: it owns focus now, and returns it
    // where this one would have (its opener may have lost focus before it could be remembered).
    if (active instanceof HTMLElement && active !== document.body && active.isConnected) {
      event.preventDefault();
      const ownerContent = active.closest('[role="dialog"], [role="alertdialog"]');
      if (ownerContent) returnTargetsByContent.get(ownerContent)?.push(...returnTargets.current);
      return;
    }
    const target = returnTargets.current.find(isFocusable);
    if (!target) return; // Radix then returns focus to the Trigger, if there is one.
    event.preventDefault();
    target.focus();
  };

  return { onOpenAutoFocus, onCloseAutoFocus };
}
