import { ArrowLeft } from "lucide-react";
import { Link, Navigate, useParams } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { PortalSkeleton } from "@/components/ui/page-skeleton.tsx";
import { SkipLink } from "@/components/ui/skip-link.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { PortalTopBar } from "@/features/portal/portal-top-bar.tsx";
import { SigningFlow } from "@/features/signatures/signing-flow.tsx";
import { useOwnSignatureRequest } from "@/features/signatures/use-signatures.ts";
import { httpStatus } from "@/lib/api-error.ts";
import { useCurrentUser } from "@/lib/use-current-user.ts";

/** /signatures/:id: one document the firm asks this person to sign (issue 35). */
export function SignaturePage() {
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
        <SignatureRequest key={id} id={id} />
      </main>
    </div>
  );
}

function SignatureRequest({ id }: { id: string }) {
  const request = useOwnSignatureRequest(id);
  if (request.data) {
    return (
      <>
        <title>{`${request.data.title} | Client Portal`}</title>
        <SigningFlow request={request.data} />
      </>
    );
  }
  if (httpStatus(request.error) === 404) {
    return (
      <div className="grid justify-items-start gap-3 rounded-xl border bg-card p-6">
        <title>Signature request not found | Client Portal</title>
        <h1 className="text-xl font-semibold">Signature request not found</h1>
        <p className="text-sm text-muted-foreground">It may have been withdrawn, or it belongs to another account.</p>
      </div>
    );
  }
  if (request.isError) {
    return <LoadError message="Failed to load the signature request" onRetry={() => void request.refetch()} isRetrying={request.isFetching} />;
  }
  return <Spinner label="Loading the signature request…" className="justify-center py-10" />;
}
