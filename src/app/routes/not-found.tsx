import { Link } from "react-router";
import { Button } from "@/components/ui/button.tsx";

export function NotFoundPage() {
  return (
    <main className="mx-auto grid min-h-dvh max-w-content place-content-center gap-4 px-6 text-center">
      <title>Page not found</title>
      <p className="text-sm font-semibold text-accent tabular-nums">404</p>
      <h1 className="text-3xl font-semibold">Page not found</h1>
      <p className="text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <div>
        <Button asChild variant="outline">
          <Link to="/">Back to the home page</Link>
        </Button>
      </div>
    </main>
  );
}
