import { LoaderCircle } from "lucide-react";
import { clsx } from "clsx";

type SpinnerProps = {
  /** What is loading, read by screen readers. */
  label?: string;
  /** Added to the inline-flex root, not merged with it (see Button): layout such as `w-full justify-center`. */
  className?: string;
};

export function Spinner({ label = "Loading…", className }: SpinnerProps) {
  return (
    <span role="status" className={clsx("inline-flex items-center text-muted-foreground", className)}>
      <LoaderCircle className="size-5 animate-spin" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
