import { LoaderCircle } from "lucide-react";
import { cn } from "@/lib/cn.ts";

type SpinnerProps = {
  /** What is loading, read by screen readers. */
  label?: string;
  className?: string;
};

export function Spinner({ label = "Loading…", className }: SpinnerProps) {
  return (
    <span role="status" className={cn("inline-flex items-center text-muted-foreground", className)}>
      <LoaderCircle className="size-5 animate-spin" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
