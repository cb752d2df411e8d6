import { type ComponentProps, useCallback, useEffect, useRef, useState } from "react";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { Tabs as TabsPrimitive } from "radix-ui";
import { cn } from "@/lib/cn.ts";

export const Tabs = TabsPrimitive.Root;

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn("inline-flex max-w-full items-center gap-1 overflow-x-auto rounded-lg bg-muted p-1 text-muted-foreground", className)}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        "inline-flex h-9 shrink-0 cursor-pointer max-sm:h-11 items-center justify-center gap-2 rounded-md px-3 text-sm font-medium whitespace-nowrap transition-colors duration-150 hover:text-foreground disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-sm [&_svg]:size-4",
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return <TabsPrimitive.Content className={cn("mt-6", className)} {...props} />;
}

/**
 * A tab row that may be wider than the screen (the dashboard's five sections on a phone): it
 * scrolls sideways, a fade and an arrow show on each side that has more tabs, and the selected tab
 * is scrolled into view. The arrows are for pointers; the keyboard moves along the tablist with the
 * arrow keys as any tablist (the focused tab scrolls into view itself).
 */
export function ScrollingTabsList({ className, value, ...props }: ComponentProps<typeof TabsPrimitive.List> & { value: string }) {
  const listRef = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ before: false, after: false });

  const measure = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    const before = list.scrollLeft > 1;
    const after = list.scrollLeft + list.clientWidth < list.scrollWidth - 1;
    setMore((current) => (current.before === before && current.after === after ? current : { before, after }));
  }, []);

  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    list.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      list.removeEventListener("scroll", measure);
    };
  }, [measure]);

  // The selected tab in view, whichever way it was chosen (a link, Back, a reload).
  useEffect(() => {
    const list = listRef.current;
    const active = list?.querySelector<HTMLElement>('[role="tab"][data-state="active"]');
    if (!list || !active) return;
    const start = active.offsetLeft - list.offsetLeft;
    const end = start + active.offsetWidth;
    const edge = 40;
    if (start - edge < list.scrollLeft) list.scrollTo({ left: Math.max(0, start - edge), behavior: "instant" });
    else if (end + edge > list.scrollLeft + list.clientWidth) list.scrollTo({ left: end + edge - list.clientWidth, behavior: "instant" });
    measure();
  }, [value, measure]);

  const scrollBy = (direction: -1 | 1) => {
    const list = listRef.current;
    list?.scrollBy({
      left: direction * list.clientWidth * 0.7,
      behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "instant" : "smooth",
    });
  };

  return (
    <div className="relative min-w-0" data-more-before={more.before || undefined} data-more-after={more.after || undefined}>
      <TabsList ref={listRef} className={cn("w-full [scrollbar-width:none] [&::-webkit-scrollbar]:hidden", className)} {...props} />
      {more.before && <ScrollHint side="before" onClick={() => scrollBy(-1)} />}
      {more.after && <ScrollHint side="after" onClick={() => scrollBy(1)} />}
    </div>
  );
}

function ScrollHint({ side, onClick }: { side: "before" | "after"; onClick: () => void }) {
  const Icon = side === "before" ? ChevronLeft : ChevronRight;
  return (
    <div
      aria-hidden="true"
      className={cn(
        "pointer-events-none absolute inset-y-0 flex w-14 items-center rounded-lg from-muted from-45% to-transparent",
        side === "before" ? "left-0 justify-start bg-linear-to-r" : "right-0 justify-end bg-linear-to-l",
      )}
    >
      <button
        type="button"
        tabIndex={-1}
        onClick={onClick}
        className="pointer-events-auto grid size-9 cursor-pointer place-items-center rounded-md text-foreground hover:bg-card/70 max-sm:h-11"
      >
        <Icon className="size-4" />
      </button>
    </div>
  );
}
