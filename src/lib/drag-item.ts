/*
 * Moving a document or a folder by dragging it onto a folder (a folder row or a crumb of the
 * breadcrumb). The dragged item travels in the DataTransfer under a type of our own, so the
 * upload area (which takes "Files") and other pages' drags are never mistaken for it.
 */
import { type DragEvent, useState } from "react";

const DRAG_ITEM_TYPE = "application/x-portal-item";

export type DragItem = { kind: "document" | "folder"; id: string; name: string };

/** The props that make an element draggable as `item`. */
export function dragSource(item: DragItem) {
  return {
    draggable: true,
    onDragStart: (event: DragEvent) => {
      event.dataTransfer.setData(DRAG_ITEM_TYPE, JSON.stringify(item));
      event.dataTransfer.effectAllowed = "move";
    },
  };
}

function readDragItem(transfer: DataTransfer): DragItem | null {
  try {
    const value: unknown = JSON.parse(transfer.getData(DRAG_ITEM_TYPE));
    if (typeof value !== "object" || value === null) return null;
    const { kind, id, name } = value as Record<string, unknown>;
    if ((kind !== "document" && kind !== "folder") || typeof id !== "string" || typeof name !== "string") return null;
    return { kind, id, name };
  } catch {
    return null;
  }
}

/**
 * A place a dragged item can be dropped on: `over` is true while one is held above it (for the
 * highlight), and `onDrop` gets the item. Its data can only be read on drop, so every item of
 * ours is accepted while dragging; the server refuses what cannot be (a folder into itself).
 */
export function useDropTarget(onDrop: ((item: DragItem) => void) | null) {
  const [over, setOver] = useState(false);
  const accepts = (event: DragEvent) => onDrop !== null && event.dataTransfer.types.includes(DRAG_ITEM_TYPE);
  return {
    over,
    props: {
      onDragOver: (event: DragEvent) => {
        if (!accepts(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "move";
        setOver(true);
      },
      onDragLeave: (event: DragEvent) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      },
      onDrop: (event: DragEvent) => {
        if (!accepts(event)) return;
        event.preventDefault();
        event.stopPropagation();
        setOver(false);
        const item = readDragItem(event.dataTransfer);
        if (item) onDrop?.(item);
      },
    },
  };
}
