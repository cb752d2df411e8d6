import { ArrowDown, ArrowUp } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";

/** The id of an item's up (-1) or down (1) button, so focus can follow the item it moved. */
export const moveButtonId = (id: string, by: -1 | 1) => `move-${id}-${by < 0 ? "up" : "down"}`;

/**
 * Up and down for an item of a list the user orders (`what`: "question Income", "Maria Garcia"),
 * with the ids moveButtonId gives. Keyboard: Tab to them, Enter.
 */
export function MoveButtons({
  id,
  what,
  first,
  last,
  onMove,
}: {
  id: string;
  what: string;
  first: boolean;
  last: boolean;
  onMove: (by: -1 | 1) => void;
}) {
  return (
    <>
      <Button id={moveButtonId(id, -1)} variant="ghost" size="icon-sm" aria-label={`Move ${what} up`} disabled={first} onClick={() => onMove(-1)}>
        <ArrowUp aria-hidden="true" />
      </Button>
      <Button id={moveButtonId(id, 1)} variant="ghost" size="icon-sm" aria-label={`Move ${what} down`} disabled={last} onClick={() => onMove(1)}>
        <ArrowDown aria-hidden="true" />
      </Button>
    </>
  );
}

/**
 * After a move has rendered: focus the button it was made with, or, where that one is now disabled
 * (the item reached the top or the bottom), its pair.
 */
export function focusMoveButton(id: string): void {
  const target = document.getElementById(id);
  if (target instanceof HTMLButtonElement && target.disabled) {
    document.getElementById(id.endsWith("-up") ? id.replace(/-up$/, "-down") : id.replace(/-down$/, "-up"))?.focus();
  } else target?.focus();
}
