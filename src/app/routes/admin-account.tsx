import { FileArchive } from "lucide-react";
import { Link, useParams, useSearchParams } from "react-router";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDownload } from "@/components/ui/confirm-download.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { PageSpinner } from "@/components/ui/page-spinner.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs.tsx";
import { AccountActivity } from "@/features/activity/account-activity.tsx";
import { ClaimReviewNotice } from "@/features/admin-accounts/claim-review-notice.tsx";
import { EditAccountDialog } from "@/features/admin-accounts/edit-account-dialog.tsx";
import { KIND_LABELS } from "@/features/admin-accounts/kind-labels.ts";
import { NotesSection } from "@/features/admin-accounts/notes-section.tsx";
import { PeopleSection } from "@/features/admin-accounts/people-section.tsx";
import { useAccount } from "@/features/admin-accounts/use-accounts.ts";
import { AccountAppointments } from "@/features/admin-appointments/account-appointments.tsx";
import { ClientAssignees } from "@/features/admin-client/client-assignees.tsx";
import { AccountMessages } from "@/features/admin-messages/account-messages.tsx";
import { OrganizersSection } from "@/features/admin-organizers/organizers-section.tsx";
import { RequestsTab } from "@/features/admin-requests/requests-tab.tsx";
import { AccountLegalHold } from "@/features/admin-retention/account-legal-hold.tsx";
import { SignaturesSection } from "@/features/admin-signatures/signatures-section.tsx";
import { isRetryableAdminLoadError } from "@/lib/admin-load-failure.ts";
import { httpStatus } from "@/lib/api-error.ts";
import { formatDate } from "@/lib/format.ts";
import { useAdminMe } from "@/lib/use-admin-me.ts";
import type { FirmAccount } from "@server/domains/accounts/firm-schemas.ts";
import { EXPORT_RIGHTS, type StaffRight } from "@server/domains/staff/schemas.ts";
import { ClientDocumentsSection } from "./admin-client.tsx";
import { AdminRecordShell } from "./admin-record-shell.tsx";
import { AdminSignedIn } from "./sign-in-first.tsx";
import { ClientNotOpened } from "@/features/admin-accounts/client-not-opened.tsx";

const CLIENTS_TAB = "/admin/dashboard?tab=users";

/** The record's sections, in order; each needs the right its tab in the dashboard needs (none: anyone who reaches the account). */
const SECTIONS = [
  { value: "people", label: "People", right: null },
  { value: "documents", label: "Documents", right: "documents" },
  { value: "messages", label: "Messages", right: "messages" },
  { value: "requests", label: "Requests", right: "requests" },
  { value: "organizers", label: "Organizers", right: "requests" },
  { value: "signatures", label: "Signatures", right: "requests" },
  { value: "appointments", label: "Appointments", right: "appointments" },
  { value: "activity", label: "Activity", right: "activity" },
  { value: "notes", label: "Notes", right: null },
] as const satisfies readonly { value: string; label: string; right: StaffRight | null }[];
type Section = (typeof SECTIONS)[number]["value"];

/** /admin/accounts/:id: the client's record (issue 34). A new id is a new page. */
export function AdminAccountPage() {
  const { id = "" } = useParams();
  return (
    <AdminSignedIn>
      <AccountPage key={id} id={id} />
    </AdminSignedIn>
  );
}

function AccountPage({ id }: { id: string }) {
  const account = useAccount(id);

  return (
    <AdminRecordShell title={account.data?.name ?? "Client account"} back={{ to: CLIENTS_TAB, label: "Clients" }}>
      {account.data ? (
        <AccountRecord account={account.data} />
      ) : httpStatus(account.error) === 404 ? (
        <ClientNotOpened
          who={{ account_id: id }}
          notFoundTitle="Client account not found"
          level={1}
          back={{ to: CLIENTS_TAB, label: "Back to Clients" }}
        />
      ) : isRetryableAdminLoadError(account.error) ? (
        <LoadError message="Failed to load the client account" onRetry={() => void account.refetch()} isRetrying={account.isFetching} />
      ) : (
        <PageSpinner label="Loading the client account…" />
      )}
    </AdminRecordShell>
  );
}

/**
 * Everything about one client in sections (`?section=` in the URL, so a link or Back lands on one):
 * its people, documents, conversation, requests, appointments, trail and the firm's private notes.
 */
function AccountRecord({ account }: { account: FirmAccount }) {
  const { may } = useAdminMe();
  const [searchParams, setSearchParams] = useSearchParams();
  const sections = SECTIONS.filter((s) => s.right === null || may(s.right));
  const requested = searchParams.get("section");
  const section: Section = sections.find((s) => s.value === requested)?.value ?? "people";
  // Changing section leaves a document folder behind; the way back is the browser's Back.
  const choose = (value: string) => setSearchParams(value === "people" ? {} : { section: value });

  return (
    <>
      <div className="grid gap-3 rounded-xl border bg-card p-4 sm:grid-cols-[1fr_auto] sm:items-start sm:p-6">
        <div className="grid min-w-0 gap-1">
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <h1 className="truncate text-xl font-semibold sm:text-2xl" title={account.name}>
              {account.name}
            </h1>
            <Badge variant="secondary">{KIND_LABELS[account.kind]}</Badge>
          </div>
          <p className="text-sm text-muted-foreground">
            Client since <time dateTime={new Date(account.created_at).toISOString()}>{formatDate(account.created_at)}</time>
          </p>
          {may("activity") && (
            <Link to={`/admin/accounts/${account.id}/access`} className="w-fit text-sm font-medium underline underline-offset-4">
              Who can see this account
            </Link>
          )}
        </div>
        {may("manage_clients") && (
          <div className="flex flex-wrap gap-2 justify-self-start sm:justify-self-end">
            <EditAccountDialog account={account} />
            {/* The account's complete export, built while it downloads: for whoever may see every part of it (docs/safeguards.md, "Export"). */}
            {EXPORT_RIGHTS.every(may) && (
              <ConfirmDownload
                trigger={
                  <Button variant="outline" size="sm" aria-label={`Export all of ${account.name}'s data as a ZIP`}>
                    <FileArchive aria-hidden="true" />
                    Export
                  </Button>
                }
                title={`Download all of ${account.name}'s data?`}
                contents={
                  <>
                    <p>
                      The ZIP file holds this client&apos;s Social Security numbers and bank account and routing numbers in full (their organizer
                      answers), every document, their messages, requests, appointments and signature requests.
                    </p>
                    <p>Keep it on the firm&apos;s protected storage only, and delete it when it has served its purpose.</p>
                  </>
                }
                href={`/api/admin/accounts/${account.id}/export`}
                downloadLabel="Download the ZIP"
              />
            )}
          </div>
        )}
      </div>

      <ClaimReviewNotice account={account} mayManage={may("manage_clients")} />

      <Tabs value={section} onValueChange={choose} className="min-w-0">
        <TabsList aria-label="Client record sections" className="grid h-auto w-full grid-cols-3 sm:inline-flex sm:w-auto">
          {sections.map((s) => (
            <TabsTrigger key={s.value} value={s.value}>
              {s.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="people" className="grid gap-6">
          <PeopleSection account={account} mayManage={may("manage_clients")} />
          <ClientAssignees userId={account.id} clientName={account.name} />
          {may("settings") && <AccountLegalHold account={{ id: account.id, name: account.name }} />}
        </TabsContent>
        <TabsContent value="documents">
          <ClientDocumentsSection
            id={account.id}
            clientName={account.name}
            // Invited people prove their address by accepting; a joined person may not have (docs/security.md, Round 3).
            verified={account.contacts.every((c) => c.user_id === null || c.email_verified)}
          />
        </TabsContent>
        <TabsContent value="messages">
          <AccountMessages accountId={account.id} accountName={account.name} />
        </TabsContent>
        <TabsContent value="requests">
          <RequestsTab account={{ id: account.id, name: account.name }} />
        </TabsContent>
        <TabsContent value="organizers">
          <OrganizersSection account={{ id: account.id, name: account.name }} />
        </TabsContent>
        <TabsContent value="signatures">
          <SignaturesSection account={account} />
        </TabsContent>
        <TabsContent value="appointments">
          <AccountAppointments accountId={account.id} />
        </TabsContent>
        <TabsContent value="activity">
          <AccountActivity accountId={account.id} />
        </TabsContent>
        <TabsContent value="notes">
          <NotesSection accountId={account.id} />
        </TabsContent>
      </Tabs>
    </>
  );
}
