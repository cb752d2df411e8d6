import type { ReactNode } from "react";
import { ArrowLeft } from "lucide-react";
import { Link, useParams } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { PortalSkeleton } from "@/components/ui/page-skeleton.tsx";
import { SkipLink } from "@/components/ui/skip-link.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { PortalTopBar } from "@/features/portal/portal-top-bar.tsx";
import { httpStatus } from "@/lib/api-error.ts";
import { useCurrentUser } from "@/lib/use-current-user.ts";
import { SignInFirst } from "./sign-in-first.tsx";

/**
 * The client portal's pages of one item the firm sent (/signatures/:id, /organizers/:id): signed in
 * or sent to sign in first (and back here after), the top bar and the way back to the dashboard, then `children(id)` for the :id of the address.
 */
export function PortalItemPage({ children }: { children: (id: string) => ReactNode }) {
  const { user, status } = useCurrentUser();
  const { id = "" } = useParams();
  if (status === "unknown") return <PortalSkeleton label="Checking your session…" />;
  if (!user) return <SignInFirst portal="client" />;
  return (
    <div className="min-h-dvh bg-background">
      <SkipLink />
      <PortalTopBar userName={user.name} email={user.email} />
      <main id="main" tabIndex={-1} className="mx-auto grid max-w-3xl min-w-0 gap-4 px-4 py-5 outline-none sm:gap-6 sm:px-6 sm:py-10">
        <Button asChild variant="ghost" size="sm" className="w-fit">
          <Link to="/dashboard">
            <ArrowLeft aria-hidden="true" />
            Dashboard
          </Link>
        </Button>
        {children(id)}
      </main>
    </div>
  );
}

type ItemQuery<T> = { data: T | undefined; error: unknown; isError: boolean; isFetching: boolean; refetch: () => unknown };

type PortalItemProps<T extends { title: string }> = {
  query: ItemQuery<T>;
  /** What the item is called in a sentence ("signature request"). */
  noun: string;
  /** The item once loaded; the document title is set from its title. */
  children: (item: T) => ReactNode;
};

/** One item of a portal item page as its query stands: the item, not found (404), a failure with a retry, or loading. */
export function PortalItem<T extends { title: string }>({ query, noun, children }: PortalItemProps<T>) {
  if (query.data) {
    return (
      <>
        <title>{`${query.data.title} | Client Portal`}</title>
        {children(query.data)}
      </>
    );
  }
  if (httpStatus(query.error) === 404) {
    const notFound = `${noun.charAt(0).toUpperCase()}${noun.slice(1)} not found`;
    return (
      <div className="grid justify-items-start gap-3 rounded-xl border bg-card p-6">
        <title>{`${notFound} | Client Portal`}</title>
        <h1 className="text-xl font-semibold">{notFound}</h1>
        <p className="text-sm text-muted-foreground">It may have been withdrawn, or it belongs to another account.</p>
      </div>
    );
  }
  if (query.isError) {
    return <LoadError message={`Failed to load the ${noun}`} onRetry={() => void query.refetch()} isRetrying={query.isFetching} />;
  }
  return <Spinner label={`Loading the ${noun}…`} className="justify-center py-10" />;
}
