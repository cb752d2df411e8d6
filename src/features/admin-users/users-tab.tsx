import { FolderOpen, Trash2 } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { type DataTableColumn, DataTable } from "@/components/ui/data-table.tsx";
import { Progress } from "@/components/ui/progress.tsx";
import { TruncatedText } from "@/components/ui/truncated-text.tsx";
import { UnverifiedBadge } from "@/components/ui/unverified-badge.tsx";
import { formatDate } from "@/lib/format.ts";
import { formatStorageSize, usedPercent } from "@/lib/storage-size.ts";
import type { AdminUser } from "@server/domains/admin/schemas.ts";
import { useServerPaging } from "@/lib/use-server-paging.ts";
import { QuotaDialog } from "./quota-dialog.tsx";
import { useAdminUsers } from "./use-admin-users.ts";
import { useDeleteUser } from "./use-delete-user.ts";

/** `mayManage`: the quota and delete buttons (manage_clients); `mayOpenDocuments`: a client's documents (documents). */
export function UsersTab({ mayManage = true, mayOpenDocuments = true }: { mayManage?: boolean; mayOpenDocuments?: boolean } = {}) {
  const paging = useServerPaging();
  const users = useAdminUsers(paging);
  const deleteUser = useDeleteUser();

  const columns: DataTableColumn<AdminUser>[] = [
    {
      header: "Name",
      card: "title",
      cell: (user) => (
        <div className="min-w-40 sm:max-w-64">
          {user.is_admin ? (
            <TruncatedText text={user.name} className="font-medium" />
          ) : (
            // The client's page: their folders and documents, where the firm shares files with them.
            <Link to={`/admin/users/${user.id}`} title={user.name} className="block truncate rounded-sm font-medium hover:underline">
              {user.name}
            </Link>
          )}
          <TruncatedText text={user.email} className="text-muted-foreground" />
          {!user.is_admin && <UnverifiedBadge email_verified={user.email_verified} />}
        </div>
      ),
    },
    {
      header: "Username",
      className: "hidden md:table-cell",
      cell: (user) => (user.username ? <TruncatedText text={user.username} className="max-w-40" /> : "—"),
    },
    { header: "Sign-in", className: "hidden md:table-cell", cell: (user) => (user.auth_provider === "google" ? "Google" : "Password") },
    {
      header: "Joined",
      className: "hidden whitespace-nowrap tabular-nums sm:table-cell",
      cell: (user) => <time dateTime={new Date(user.created_at).toISOString()}>{formatDate(user.created_at)}</time>,
    },
    {
      header: "Storage",
      className: "hidden sm:table-cell",
      cell: (user) => (user.is_admin ? "—" : <StorageCell user={user} />),
    },
    {
      header: "Actions",
      className: "text-right",
      card: "actions",
      cell: (user) =>
        user.is_admin ? (
          <Badge variant="secondary">Admin</Badge>
        ) : (
          <div className="flex justify-end gap-2">
            {mayOpenDocuments && (
              <Button asChild variant="outline" size="sm">
                <Link to={`/admin/users/${user.id}`} aria-label={`Documents of ${user.name}`}>
                  <FolderOpen aria-hidden="true" />
                  Documents
                </Link>
              </Button>
            )}
            {mayManage && <QuotaDialog user={user} />}
            {mayManage && (
              <ConfirmAction
                title={`Delete ${user.name}?`}
                question="Are you sure you want to delete this user and all their data?"
                confirmLabel="Delete user"
                onConfirm={() => deleteUser.mutate({ id: user.id })}
                trigger={
                  <Button variant="ghost-destructive" size="sm" aria-label={`Delete ${user.name}`}>
                    <Trash2 aria-hidden="true" />
                    Delete
                  </Button>
                }
              />
            )}
          </div>
        ),
    },
  ];

  return (
    <DataTable
      caption="Users"
      searchLabel="Search users by name, username or email"
      columns={columns}
      query={users}
      rowKey={(user) => user.id}
      paging={paging}
      emptyText={paging.input.q ? "No users match your search." : "No users yet."}
    />
  );
}

function StorageCell({ user }: { user: AdminUser }) {
  const text = `${formatStorageSize(user.used_bytes)} of ${formatStorageSize(user.quota_bytes)}`;
  return (
    <div className="grid w-32 gap-1.5">
      <span className="whitespace-nowrap tabular-nums">{text}</span>
      <Progress
        value={usedPercent(user.used_bytes, user.quota_bytes)}
        aria-label={`Storage used by ${user.name}`}
        getValueLabel={() => text}
        className="h-1"
      />
    </div>
  );
}
