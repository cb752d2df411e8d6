import type { ComponentProps } from "react";
import { cn } from "@/lib/cn.ts";
import { controlClasses } from "./input.tsx";

export function Textarea({ className, rows = 4, ...props }: ComponentProps<"textarea">) {
  return <textarea rows={rows} className={cn(controlClasses, "min-h-20 resize-y py-2", className)} {...props} />;
}
