import { describe, expect, it } from "vitest";
import {
  AUTOPLAY_INTERVAL_MS,
  nextIndex,
  previousIndex,
  SLIDE_TRANSITION_MS,
  trackSlots,
  VISIBLE_COUNT,
  visibleIndices,
  wrapIndex,
} from "../../src/features/testimonials/carousel.ts";
import { parseTestimonials } from "../../src/features/testimonials/parse-testimonials.ts";

describe("carousel index arithmetic", () => {
  it("keeps the spec's constants", () => {
    expect([VISIBLE_COUNT, AUTOPLAY_INTERVAL_MS, SLIDE_TRANSITION_MS]).toEqual([3, 4000, 500]);
  });

  it("wraps next past the last item and previous before the first", () => {
    expect(nextIndex(0, 12)).toBe(1);
    expect(nextIndex(11, 12)).toBe(0);
    expect(previousIndex(0, 12)).toBe(11);
    expect(previousIndex(5, 12)).toBe(4);
    expect(wrapIndex(-13, 12)).toBe(11);
    expect(wrapIndex(25, 12)).toBe(1);
    expect(wrapIndex(3, 0)).toBe(0);
  });

  it("twelve nexts come back to the start", () => {
    let index = 0;
    for (let i = 0; i < 12; i++) index = nextIndex(index, 12);
    expect(index).toBe(0);
  });

  it("shows three items from the active one, wrapping past the end", () => {
    expect(visibleIndices(0, 12)).toEqual([0, 1, 2]);
    expect(visibleIndices(10, 12)).toEqual([10, 11, 0]);
    expect(visibleIndices(11, 12)).toEqual([11, 0, 1]);
    expect(visibleIndices(0, 2)).toEqual([0, 1]);
  });

  it("renders copies of the first items after the last so the wrapped window and its peek exist in the track", () => {
    const slots = trackSlots(11, 12);
    expect(slots).toHaveLength(15);
    expect(slots.filter((s) => s.isVisible).map((s) => s.item)).toEqual(visibleIndices(11, 12));
    expect(slots.filter((s) => s.isClone).map((s) => s.item)).toEqual([0, 1, 2]);
    // The slot after the visible window (the dimmed peek) exists for every active item.
    for (let active = 0; active < 12; active++) expect(trackSlots(active, 12)[active + 3]).toBeDefined();
    for (let active = 0; active < 12; active++) {
      expect(
        trackSlots(active, 12)
          .filter((s) => s.isVisible)
          .map((s) => s.item),
      ).toEqual(visibleIndices(active, 12));
    }
  });
});

describe("parseTestimonials", () => {
  it("reads the stored JSON list", () => {
    const stored = JSON.stringify([
      { text: "Great", author: "Ann", business: "Bakery" },
      { text: "Fine", author: "Bo" },
    ]);
    expect(parseTestimonials(stored)).toEqual([
      { text: "Great", author: "Ann", business: "Bakery" },
      { text: "Fine", author: "Bo", business: "" },
    ]);
  });

  it("falls back to the 12 defaults for missing, broken or empty data", () => {
    for (const value of [undefined, "", "not json", "{}", "[]", JSON.stringify([{ author: "no text" }])]) {
      expect(parseTestimonials(value)).toHaveLength(12);
    }
  });
});
