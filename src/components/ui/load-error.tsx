import { CircleAlert, RotateCw } from "lucide-react";
import { cn } from "@/lib/cn.ts";
import { Button } from "./button.tsx";

type LoadErrorProps = {
  message: string;
  onRetry: () => void;
  /** True while the retry is under way. */
  isRetrying: boolean;
  className?: string;
};

/** Data that failed to load: says so and offers Retry, instead of a spinner that never ends. */
export function LoadError({ message, onRetry, isRetrying, className }: LoadErrorProps) {
  return (
    <div className={cn("flex flex-col items-start gap-3 rounded-xl border border-destructive/30 bg-card p-6 sm:flex-row sm:items-center", className)}>
      <p role="alert" className="flex grow items-center gap-2 text-sm font-medium">
        <CircleAlert aria-hidden="true" className="size-4 shrink-0 text-destructive" />
        {message}
      </p>
      <Button variant="outline" size="sm" disabled={isRetrying} onClick={onRetry}>
        <RotateCw aria-hidden="true" className={cn(isRetrying && "motion-safe:animate-spin")} />
        {isRetrying ? "Retrying..." : "Retry"}
      </Button>
    </div>
  );
}
