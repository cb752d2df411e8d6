import { ArrowLeft } from "lucide-react";
import { Link, useParams } from "react-router";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { PageSpinner } from "@/components/ui/page-spinner.tsx";
import { KIND_LABELS } from "@/features/admin-accounts/kind-labels.ts";
import { PeopleSection } from "@/features/admin-accounts/people-section.tsx";
import { useAccount } from "@/features/admin-accounts/use-accounts.ts";
import { isRetryableAdminLoadError } from "@/lib/admin-load-failure.ts";
import { httpStatus } from "@/lib/api-error.ts";
import { formatDate } from "@/lib/format.ts";
import { useAdminMe } from "@/lib/use-admin-me.ts";
import { ClientDocumentsSection } from "./admin-client.tsx";

const CLIENTS_TAB = "/admin/dashboard?tab=users";

/** /admin/accounts/:id: one client account, its people and its documents. A new id is a new page. */
export function AdminAccountPage() {
  const { id = "" } = useParams();
  return <AccountPage key={id} id={id} />;
}

function AccountPage({ id }: { id: string }) {
  const account = useAccount(id);
  const { may } = useAdminMe();

  return (
    <div className="min-h-dvh bg-muted/40">
      <title>{account.data ? `${account.data.name} | Admin | Client Portal` : "Client account | Admin | Client Portal"}</title>
      <header className="border-b bg-card">
        <div className="mx-auto flex max-w-content items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <Link to="/admin/dashboard" className="flex min-w-0 items-center gap-2.5 rounded-md">
            <img src="/images/logo.svg" alt="" width={32} height={32} className="size-8 shrink-0" />
            <span className="truncate font-semibold">
              Admin <span className="hidden font-normal text-muted-foreground sm:inline">· Client Portal</span>
            </span>
          </Link>
          <Button asChild variant="outline" size="sm">
            <Link to={CLIENTS_TAB}>
              <ArrowLeft aria-hidden="true" />
              Clients
            </Link>
          </Button>
        </div>
      </header>
      <main className="mx-auto grid max-w-content gap-6 px-4 py-6 sm:px-6 sm:py-8">
        {account.data ? (
          <>
            <div className="grid gap-1 rounded-xl border bg-card p-4 sm:p-6">
              <div className="flex min-w-0 flex-wrap items-center gap-2">
                <h1 className="truncate text-xl font-semibold sm:text-2xl" title={account.data.name}>
                  {account.data.name}
                </h1>
                <Badge variant="secondary">{KIND_LABELS[account.data.kind]}</Badge>
              </div>
              <p className="text-sm text-muted-foreground">
                Client since <time dateTime={new Date(account.data.created_at).toISOString()}>{formatDate(account.data.created_at)}</time>
              </p>
            </div>
            <PeopleSection account={account.data} mayManage={may("manage_clients")} />
            {may("documents") && (
              <ClientDocumentsSection
                id={account.data.id}
                clientName={account.data.name}
                // Invited people prove their address by accepting; a joined person may not have (docs/security.md, Round 3).
                verified={account.data.contacts.every((c) => c.user_id === null || c.email_verified)}
              />
            )}
          </>
        ) : httpStatus(account.error) === 404 ? (
          <div className="grid justify-items-start gap-3 rounded-xl border bg-card p-6">
            <h1 className="text-xl font-semibold">Client account not found</h1>
            <p className="text-sm text-muted-foreground">This account was deleted.</p>
            <Button asChild variant="outline">
              <Link to={CLIENTS_TAB}>Back to Clients</Link>
            </Button>
          </div>
        ) : isRetryableAdminLoadError(account.error) ? (
          <LoadError message="Failed to load the client account" onRetry={() => void account.refetch()} isRetrying={account.isFetching} />
        ) : (
          <PageSpinner label="Loading the client account…" />
        )}
      </main>
    </div>
  );
}
