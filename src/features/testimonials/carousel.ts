/** The testimonial carousel's rules (docs/decisions.md, The pages), kept free of React so they are testable. */
export const VISIBLE_COUNT = 3;
/** Below Tailwind's md breakpoint one slot takes most of the width, so only one is readable. */
export const SMALL_SCREEN_VISIBLE_COUNT = 1;
export const THREE_VISIBLE_MEDIA_QUERY = "(min-width: 48rem)";
export const AUTOPLAY_INTERVAL_MS = 4000;
export const SLIDE_TRANSITION_MS = 500;

/** `index` brought into 0..count-1, wrapping both ways. */
export function wrapIndex(index: number, count: number): number {
  if (count <= 0) return 0;
  return ((index % count) + count) % count;
}

export function nextIndex(index: number, count: number): number {
  return wrapIndex(index + 1, count);
}

export function previousIndex(index: number, count: number): number {
  return wrapIndex(index - 1, count);
}

/** The items shown at full strength: the active one and the next ones, wrapping past the end. */
export function visibleIndices(active: number, count: number, visible = VISIBLE_COUNT): number[] {
  const shown = Math.min(visible, count);
  return Array.from({ length: shown }, (_, offset) => wrapIndex(active + offset, count));
}

/**
 * The rendered track: every item once, then copies of the first ones so the window after the
 * last item can show the wrap-around without jumping, with the dimmed peek of the item after it
 * (so the peek looks the same after wrapping as before). Each slot says which item it shows and
 * whether it lies in the visible window starting at `active`.
 */
export function trackSlots(active: number, count: number, visible = VISIBLE_COUNT) {
  const clones = count > visible ? visible : 0;
  return Array.from({ length: count + clones }, (_, position) => ({
    position,
    item: wrapIndex(position, count),
    isClone: position >= count,
    isVisible: position >= active && position < active + Math.min(visible, count),
  }));
}

/** With this many testimonials or fewer, all are shown at once in a static row, without controls. */
export function isStatic(count: number): boolean {
  return count <= VISIBLE_COUNT;
}

/** A horizontal swipe of at least this many CSS pixels moves the carousel by one. */
export const SWIPE_THRESHOLD_PX = 40;
