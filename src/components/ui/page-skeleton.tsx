/** A grey block where text or a control will be. */
function Bone({ className }: { className: string }) {
  return <div className={`rounded-md bg-muted motion-safe:animate-pulse ${className}`} />;
}

/**
 * The portal page's outline (top bar, heading, tabs, a list) while its code or the session check
 * loads, so a cold load shows the shape of what is coming instead of a blank page with a spinner.
 */
export function PortalSkeleton({ label = "Loading page…" }: { label?: string }) {
  return (
    <div className="min-h-dvh bg-background" role="status" aria-label={label}>
      <div className="border-b bg-card">
        <div className="mx-auto flex h-16 max-w-content items-center justify-between gap-3 px-4 sm:px-6">
          <div className="flex items-center gap-2.5">
            <Bone className="size-8" />
            <Bone className="h-4 w-28 sm:w-48" />
          </div>
          <Bone className="h-8 w-32" />
        </div>
      </div>
      <div className="mx-auto grid max-w-content gap-4 px-4 py-5 sm:gap-6 sm:px-6 sm:py-10">
        <Bone className="h-7 w-64 max-w-full sm:h-9" />
        <Bone className="h-11 w-full sm:h-10 sm:w-96" />
        <div className="flex items-center justify-between">
          <Bone className="h-6 w-32" />
          <Bone className="h-10 w-32" />
        </div>
        <Bone className="h-16 w-full" />
        <div className="grid gap-px overflow-hidden rounded-xl border bg-card">
          {[0, 1, 2, 3].map((row) => (
            <div key={row} className="flex items-center gap-3 px-4 py-3.5">
              <Bone className="size-5 shrink-0" />
              <Bone className="h-4 w-1/2" />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
