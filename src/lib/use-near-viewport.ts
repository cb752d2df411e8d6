import { type RefCallback, useCallback, useState } from "react";

/**
 * True once the element has come within `margin` of the viewport, and from then on: for parts
 * far below the fold whose code need not load before the visitor heads their way.
 */
export function useNearViewport<T extends Element>(margin: string): [RefCallback<T>, boolean] {
  const [near, setNear] = useState(false);
  const ref = useCallback(
    (element: T | null) => {
      if (!element || near) return;
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) setNear(true);
        },
        { rootMargin: margin },
      );
      observer.observe(element);
      return () => observer.disconnect();
    },
    [margin, near],
  );
  return [ref, near];
}
