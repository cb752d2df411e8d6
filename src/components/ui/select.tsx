import type { ComponentProps } from "react";
import { ChevronDown } from "lucide-react";
import { cn } from "@/lib/cn.ts";
import { controlClasses } from "./input.tsx";

type SelectProps = ComponentProps<"select"> & {
  /** Classes for the wrapper, which sets the width; `className` styles the <select> itself. */
  wrapperClassName?: string;
};

/** A styled native <select>: the platform's own picker, keyboard and screen-reader behaviour. */
export function Select({ className, wrapperClassName, children, ...props }: SelectProps) {
  return (
    <div className={cn("relative w-full", wrapperClassName)}>
      <select className={cn(controlClasses, "h-10 cursor-pointer appearance-none py-2 pr-9 max-sm:h-11", className)} {...props}>
        {children}
      </select>
      <ChevronDown className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground" />
    </div>
  );
}
