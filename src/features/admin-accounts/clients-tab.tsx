import { Link } from "react-router";
import { Badge } from "@/components/ui/badge.tsx";
import { type DataTableColumn, DataTable } from "@/components/ui/data-table.tsx";
import { TruncatedText } from "@/components/ui/truncated-text.tsx";
import { formatDate } from "@/lib/format.ts";
import { useServerPaging } from "@/lib/use-server-paging.ts";
import type { FirmAccount } from "@server/domains/accounts/firm-schemas.ts";
import { ImportAccountsDialog } from "./import-accounts-dialog.tsx";
import { KIND_LABELS } from "./kind-labels.ts";
import { NewAccountDialog } from "./new-account-dialog.tsx";
import { useAccounts } from "./use-accounts.ts";

/** The Clients tab: accounts with their people, searchable by the account's or a person's name or email. */
export function ClientsTab({ mayManage = true }: { mayManage?: boolean } = {}) {
  const paging = useServerPaging();
  const accounts = useAccounts(paging);

  const columns: DataTableColumn<FirmAccount>[] = [
    {
      header: "Account",
      card: "title",
      cell: (account) => (
        <div className="grid min-w-40 gap-1 sm:max-w-72">
          <Link to={`/admin/accounts/${account.id}`} title={account.name} className="block truncate rounded-sm font-medium hover:underline">
            {account.name}
          </Link>
          <span className="flex flex-wrap gap-1">
            <Badge variant="secondary">{KIND_LABELS[account.kind]}</Badge>
            {/* A claimed login left it (docs/security.md, Round 4): the record says what to check. */}
            {account.claim_review && <Badge variant="muted">Needs review</Badge>}
          </span>
        </div>
      ),
    },
    {
      header: "People",
      cell: (account) =>
        account.contacts.length === 0 ? (
          account.retained_until ? (
            // A person's deletion left it standing for its signed records (docs/security.md, "Round 4").
            <span className="text-muted-foreground">
              No people · signed records kept until{" "}
              <time dateTime={new Date(account.retained_until).toISOString()}>{formatDate(account.retained_until)}</time>
            </span>
          ) : (
            <span className="text-muted-foreground">No people yet</span>
          )
        ) : (
          <ul className="grid min-w-0 gap-0.5 sm:max-w-80" aria-label={`People of ${account.name}`}>
            {account.contacts.map((c) => (
              <li key={c.user_id ?? c.invitation_id} className="flex min-w-0 items-center gap-1.5">
                <TruncatedText text={`${c.name} · ${c.email}`} />
                {c.user_id === null && <Badge variant="muted">Invited</Badge>}
                {c.role === "owner" && c.user_id !== null && <Badge variant="success">Owner</Badge>}
              </li>
            ))}
          </ul>
        ),
    },
    {
      header: "Since",
      className: "hidden whitespace-nowrap tabular-nums sm:table-cell",
      cell: (account) => <time dateTime={new Date(account.created_at).toISOString()}>{formatDate(account.created_at)}</time>,
    },
  ];

  return (
    <DataTable
      caption="Client accounts"
      searchLabel="Search clients by account, name or email"
      columns={columns}
      query={accounts}
      rowKey={(account) => account.id}
      paging={paging}
      emptyText={paging.input.q ? "No client accounts match your search." : "No client accounts yet."}
      toolbar={
        mayManage && (
          <div className="flex flex-wrap gap-2">
            <NewAccountDialog />
            <ImportAccountsDialog />
          </div>
        )
      }
    />
  );
}
