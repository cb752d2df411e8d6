import { Spinner } from "./spinner.tsx";

/** Fills the viewport while a route's code or its session check loads. */
export function PageSpinner({ label = "Loading page…" }: { label?: string }) {
  return (
    <div className="grid min-h-dvh place-items-center bg-background">
      <Spinner label={label} className="[&_svg]:size-8" />
    </div>
  );
}
