import { Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { type DataTableColumn, DataTable } from "@/components/ui/data-table.tsx";
import { formatDate } from "@/lib/format.ts";
import type { PublicUser } from "../../../server/routers/auth/schemas.ts";
import { useServerPaging } from "@/lib/use-server-paging.ts";
import { useAdminUsers } from "./use-admin-users.ts";
import { useDeleteUser } from "./use-delete-user.ts";


export function UsersTab() {
  const paging = useServerPaging();
  const users = useAdminUsers(paging);
  const deleteUser = useDeleteUser();

  const columns: DataTableColumn<PublicUser>[] = [
    {
      header: "Name",
      cell: (user) => (
        <div className="min-w-40">
          <p className="font-medium">{user.name}</p>
          <p className="text-muted-foreground">{user.email}</p>
        </div>
      ),
    },
    { header: "Username", className: "hidden md:table-cell", cell: (user) => user.username ?? "—" },
    { header: "Sign-in", className: "hidden md:table-cell", cell: (user) => (user.auth_provider === "google" ? "Google" : "Password") },
    {
      header: "Joined",
      className: "hidden whitespace-nowrap tabular-nums sm:table-cell",
      cell: (user) => <time dateTime={new Date(user.created_at).toISOString()}>{formatDate(user.created_at)}</time>,
    },
    {
      header: "Actions",
      className: "text-right",
      cell: (user) =>
        user.is_admin ? (
          <Badge variant="secondary">Admin</Badge>
        ) : (
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
