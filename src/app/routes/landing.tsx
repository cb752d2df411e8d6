import { Link } from "react-router";
import { Button } from "@/components/ui/button.tsx";

export function LandingPage() {
  return (
    <main className="mx-auto grid min-h-dvh max-w-content place-content-center gap-6 px-6 py-16 text-center">
      <title>Accounting, Tax &amp; Business Services</title>
      <h1 className="text-4xl font-semibold sm:text-display">Your books, handled.</h1>
      <p className="mx-auto max-w-prose text-lg text-muted-foreground">
        Bookkeeping, tax preparation and business consulting for small businesses, with a secure client portal.
      </p>
      <div>
        <Button asChild variant="accent" size="lg">
          <Link to="/dashboard">Access Client Portal</Link>
        </Button>
      </div>
    </main>
  );
}
