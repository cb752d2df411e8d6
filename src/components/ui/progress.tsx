import type { ComponentProps } from "react";
import { Progress as ProgressPrimitive } from "radix-ui";
import { cn } from "@/lib/cn.ts";

type ProgressProps = ComponentProps<typeof ProgressPrimitive.Root> & {
  /** 0-100, or null while the amount is unknown. Give the bar an `aria-label`. */
  value: number | null;
};

/** A progress bar with role="progressbar" and aria-valuenow, for uploads and similar waits. */
export function Progress({ className, value, max = 100, ...props }: ProgressProps) {
  const percent = value === null ? 0 : Math.min(100, Math.max(0, (value / max) * 100));
  return (
    <ProgressPrimitive.Root value={value} max={max} className={cn("relative h-2 w-full overflow-hidden rounded-full bg-muted", className)} {...props}>
      <ProgressPrimitive.Indicator
        className="h-full w-full rounded-full bg-accent transition-transform duration-200"
        style={{ transform: `translateX(-${100 - percent}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}
