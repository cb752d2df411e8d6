import { Button } from "@/components/ui/button.tsx";

/** Shown when a route fails to render or its code cannot load (for example after a deploy). */
export function RouteErrorPage() {
  return (
    <main className="mx-auto grid min-h-dvh max-w-content place-content-center gap-4 px-6 text-center">
      <title>Something went wrong</title>
      <h1 className="text-3xl font-semibold">Something went wrong</h1>
      <p className="text-muted-foreground">Please reload the page. If the problem continues, call or email us.</p>
      <div>
        <Button onClick={() => window.location.reload()}>Reload page</Button>
      </div>
    </main>
  );
}
