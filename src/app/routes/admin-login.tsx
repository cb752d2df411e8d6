import { ArrowLeft, ShieldCheck } from "lucide-react";
import { Link, Navigate, useLocation, useSearchParams } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card.tsx";
import { PageSpinner } from "@/components/ui/page-spinner.tsx";
import { AdminLoginForm } from "@/features/admin-auth/admin-login-form.tsx";
import { useAdminSessionCheck } from "@/features/admin-auth/use-admin-session-check.ts";
import { RETURN_TO_PARAM, returnPath, SESSION_ENDED_MESSAGE, SESSION_ENDED_PARAM } from "@/lib/session-ended.ts";

/** To someone who opened a link into the admin portal without a session. */
const ADMIN_LINK_NOTICE = "Sign in to open the page your link leads to. You will go straight to it.";

export function AdminLoginPage() {
  const location = useLocation();
  const skipSessionCheck = (location.state as { skipSessionCheck?: boolean } | null)?.skipSessionCheck === true;
  const session = useAdminSessionCheck({ skip: skipSessionCheck });
  const [searchParams] = useSearchParams();
  // A portal page sent the admin here (its session ended, or there was none: a link in an email), to come back after signing in.
  const sessionEnded = searchParams.has(SESSION_ENDED_PARAM);
  const linked = !sessionEnded && searchParams.has(RETURN_TO_PARAM);
  const returnTo = returnPath(searchParams.get(RETURN_TO_PARAM), "admin");

  if (session === "checking") return <PageSpinner label="Checking your session…" />;
  if (session === "admin") return <Navigate to={returnTo} replace />;

  return (
    <main className="grid min-h-dvh place-items-center bg-muted/50 px-4 py-12">
      <title>Admin login | Client Portal</title>
      <div className="grid w-full max-w-sm gap-6">
        <Card className="shadow-sm">
          <CardHeader className="items-center text-center">
            <span className="mb-2 grid size-11 place-items-center rounded-full bg-accent-soft text-accent-soft-foreground">
              <ShieldCheck aria-hidden="true" className="size-5" />
            </span>
            <CardTitle asChild className="text-2xl">
              <h1>Admin login</h1>
            </CardTitle>
            <CardDescription>Firm staff sign in here to manage users, documents and the website.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            {(sessionEnded || linked) && (
              <p role="status" className="rounded-md border border-accent/30 bg-accent-soft px-3 py-2 text-sm text-accent-soft-foreground">
                {sessionEnded ? SESSION_ENDED_MESSAGE : ADMIN_LINK_NOTICE}
              </p>
            )}
            <AdminLoginForm returnTo={returnTo} />
          </CardContent>
        </Card>
        <Link to="/" className="mx-auto inline-flex items-center gap-1.5 rounded-sm text-sm text-muted-foreground hover:text-foreground">
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to main site
        </Link>
      </div>
    </main>
  );
}
