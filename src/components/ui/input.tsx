import type { ComponentProps } from "react";
import { cn } from "@/lib/cn.ts";

export const controlClasses =
  "w-full min-w-0 rounded-md border border-input bg-card px-3 text-base text-foreground transition-colors duration-150 placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive sm:text-sm";

export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return (
    <input
      type={type}
      className={cn(
        controlClasses,
        "h-10 py-2 max-sm:h-11 file:mr-3 file:border-0 file:bg-transparent file:text-sm file:font-medium file:text-foreground",
        className,
      )}
      {...props}
    />
  );
}
