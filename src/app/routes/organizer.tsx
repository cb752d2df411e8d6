import { ArrowLeft } from "lucide-react";
import { Link, Navigate, useParams } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { PortalSkeleton } from "@/components/ui/page-skeleton.tsx";
import { SkipLink } from "@/components/ui/skip-link.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { OrganizerForm } from "@/features/organizers/organizer-form.tsx";
import { useOwnOrganizer } from "@/features/organizers/use-organizers.ts";
import { PortalTopBar } from "@/features/portal/portal-top-bar.tsx";
import { httpStatus } from "@/lib/api-error.ts";
import { useCurrentUser } from "@/lib/use-current-user.ts";

/** /organizers/:id: one organizer the firm sent, to fill in (issue 36). */
export function OrganizerPage() {
  const { user, status } = useCurrentUser();
  const { id = "" } = useParams();
  if (status === "unknown") return <PortalSkeleton label="Checking your session…" />;
  if (!user) return <Navigate to="/" replace />;
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
        <Organizer key={id} id={id} />
      </main>
    </div>
  );
}

function Organizer({ id }: { id: string }) {
  const organizer = useOwnOrganizer(id);
  if (organizer.data) {
    return (
      <>
        <title>{`${organizer.data.title} | Client Portal`}</title>
        <OrganizerForm organizer={organizer.data} />
      </>
    );
  }
  if (httpStatus(organizer.error) === 404) {
    return (
      <div className="grid justify-items-start gap-3 rounded-xl border bg-card p-6">
        <title>Organizer not found | Client Portal</title>
        <h1 className="text-xl font-semibold">Organizer not found</h1>
        <p className="text-sm text-muted-foreground">It may have been withdrawn, or it belongs to another account.</p>
      </div>
    );
  }
  if (organizer.isError) {
    return <LoadError message="Failed to load the organizer" onRetry={() => void organizer.refetch()} isRetrying={organizer.isFetching} />;
  }
  return <Spinner label="Loading the organizer…" className="justify-center py-10" />;
}
