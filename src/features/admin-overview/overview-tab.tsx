import type { LucideIcon } from "lucide-react";
import { CalendarDays, FileText, FolderClosed, Users } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { TruncatedText } from "@/components/ui/truncated-text.tsx";
import { formatDate, formatFileSizeKB } from "@/lib/format.ts";
import type { AdminStats } from "@server/domains/admin/schemas.ts";
import { useAdminMe } from "@/lib/use-admin-me.ts";
import { SetupChecklist } from "./setup-checklist.tsx";
import { useAdminStats } from "./use-admin-stats.ts";

export function OverviewTab() {
  const { data } = useAdminStats();
  const { me } = useAdminMe();
  if (!data) return <Spinner label="Loading statistics…" />;
  const { stats } = data;

  return (
    <div className="grid grid-cols-1 gap-6">
      {/* Setting up the firm is the owner's and the admins' work: a staff member is not handed their checklist. */}
      {me && me.role !== "staff" && <SetupChecklist />}
      <section aria-labelledby="admin-counts-heading">
        <h2 id="admin-counts-heading" className="sr-only">
          Counts
        </h2>
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <StatCard label="Total users" value={stats.total_users} icon={Users} />
          <StatCard label="Total documents" value={stats.total_documents} icon={FileText} />
          <StatCard label="Total appointments" value={stats.total_appointments} icon={CalendarDays} />
          <StatCard label="Total folders" value={stats.total_folders} icon={FolderClosed} />
        </dl>
      </section>

      {/* Recent documents come only to those with the documents right: without it the users card fills the row. */}
      <div className={data.recent_documents ? "grid grid-cols-1 gap-6 lg:grid-cols-2" : "grid grid-cols-1 gap-6"}>
        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2>Recent users</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            {data.recent_users.length === 0 ? (
              <p className="text-sm text-muted-foreground">No users yet.</p>
            ) : (
              <ul className="divide-y">
                {data.recent_users.map((user) => (
                  <li key={user.id} className="flex items-center justify-between gap-3 py-2.5">
                    <div className="min-w-0">
                      <TruncatedText text={user.name} className="font-medium" />
                      <TruncatedText text={user.email} className="text-sm text-muted-foreground" />
                    </div>
                    <time dateTime={new Date(user.created_at).toISOString()} className="shrink-0 text-sm text-muted-foreground">
                      {formatDate(user.created_at)}
                    </time>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        {data.recent_documents && <RecentDocuments documents={data.recent_documents} />}
      </div>
    </div>
  );
}

function RecentDocuments({ documents }: { documents: NonNullable<AdminStats["recent_documents"]> }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Recent documents</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {documents.length === 0 ? (
          <p className="text-sm text-muted-foreground">No documents yet.</p>
        ) : (
          <ul className="divide-y">
            {documents.map((doc) => (
              <li key={doc.id} className="flex items-center justify-between gap-3 py-2.5">
                <div className="min-w-0">
                  <TruncatedText text={doc.original_filename} className="font-medium" />
                  <TruncatedText text={doc.user_name} className="text-sm text-muted-foreground" />
                </div>
                <div className="shrink-0 text-right text-sm text-muted-foreground tabular-nums">
                  <p>{formatFileSizeKB(doc.file_size)}</p>
                  <time dateTime={new Date(doc.upload_date).toISOString()}>{formatDate(doc.upload_date)}</time>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function StatCard({ label, value, icon: Icon }: { label: string; value: number; icon: LucideIcon }) {
  return (
    <div className="flex flex-col-reverse gap-1 rounded-xl border bg-card p-4 sm:p-5">
      <dt className="flex items-center gap-2 text-sm text-muted-foreground">
        <Icon aria-hidden="true" className="size-4" />
        {label}
      </dt>
      <dd className="text-3xl font-semibold tabular-nums" data-stat={label}>
        {value.toLocaleString()}
      </dd>
    </div>
  );
}
