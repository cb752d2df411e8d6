import { useParams } from "react-router";
import { LoadError } from "@/components/ui/load-error.tsx";
import { PageSpinner } from "@/components/ui/page-spinner.tsx";
import { AccessReportView } from "@/features/admin-team/access-report.tsx";
import { useAccessReport } from "@/features/admin-team/use-access-report.ts";
import { useAccount } from "@/features/admin-accounts/use-accounts.ts";
import { AdminRecordShell } from "./admin-record-shell.tsx";
import { isRetryableAdminLoadError } from "@/lib/admin-load-failure.ts";
import { errorDetail, httpStatus } from "@/lib/api-error.ts";
import { AdminSignedIn } from "./sign-in-first.tsx";
import { ClientNotOpened } from "@/features/admin-accounts/client-not-opened.tsx";

/** /admin/accounts/:id/access: who at the firm can see one client account and why, and who opened its documents. */
export function AdminAccessReportPage() {
  const { id = "" } = useParams();
  return (
    <AdminSignedIn>
      <AccessReportPage key={id} id={id} />
    </AdminSignedIn>
  );
}

function AccessReportPage({ id }: { id: string }) {
  const report = useAccessReport(id);
  const account = useAccount(id);
  const name = account.data?.name;
  const accountPage = `/admin/accounts/${id}`;

  return (
    <AdminRecordShell title={name ? `Access to ${name}` : "Access report"} back={{ to: accountPage, label: "Account" }}>
      <div className="grid gap-1 rounded-xl border bg-card p-4 sm:p-6">
        <h1 className="text-xl font-semibold break-words sm:text-2xl">{name ? `Access to ${name}` : "Access report"}</h1>
        <p className="text-sm text-muted-foreground">Who at the firm can see this client account, why, and who opened its documents.</p>
      </div>
      {report.data ? (
        <AccessReportView report={report.data} />
      ) : httpStatus(report.error) === 404 ? (
        <ClientNotOpened
          who={{ account_id: id }}
          notFoundTitle="Client account not found"
          level={2}
          back={{ to: "/admin/dashboard?tab=users", label: "Back to Clients" }}
        />
      ) : httpStatus(report.error) === 403 && isRetryableAdminLoadError(report.error) ? (
        <div className="grid justify-items-start gap-3 rounded-xl border bg-card p-6">
          <h2 className="text-lg font-semibold">Not available to you</h2>
          <p className="text-sm text-muted-foreground">{errorDetail(report.error)}</p>
        </div>
      ) : isRetryableAdminLoadError(report.error) ? (
        <LoadError message="Failed to load the access report" onRetry={() => void report.refetch()} isRetrying={report.isFetching} />
      ) : (
        <PageSpinner label="Loading the access report…" />
      )}
    </AdminRecordShell>
  );
}
