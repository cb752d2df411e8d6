import { useCallback, useEffect, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { PageSpinner } from "@/components/ui/page-spinner.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { ClientFiles } from "@/features/admin-client/client-files.tsx";
import { NewClientFolderDialog } from "@/features/admin-client/new-client-folder-dialog.tsx";
import { FolderBreadcrumb } from "@/features/folders/folder-breadcrumb.tsx";
import { ClientAssignees } from "@/features/admin-client/client-assignees.tsx";
import { ClientSummary } from "@/features/admin-client/client-summary.tsx";
import { useClient } from "@/features/admin-client/use-client.ts";
import { useClientFolders } from "@/features/admin-client/use-client-folders.ts";
import { useRefreshClientFiles } from "@/features/admin-client/use-refresh-client-files.ts";
import { UploadArea } from "@/features/documents/upload-area.tsx";
import { useUploadQueue } from "@/features/documents/use-upload-queue.ts";
import { folderPath } from "@/features/folders/folder-path.ts";
import { isRetryableAdminLoadError } from "@/lib/admin-load-failure.ts";
import { httpStatus } from "@/lib/api-error.ts";
import { AdminRecordShell } from "./admin-record-shell.tsx";
import { AdminSignedIn } from "./sign-in-first.tsx";
import { ClientNotOpened } from "@/features/admin-accounts/client-not-opened.tsx";

const USERS_TAB = "/admin/dashboard?tab=users";

/** /admin/users/:id: the admin's page of one client. A new id is a new page (its own upload queue). */
export function AdminClientPage() {
  const { id = "" } = useParams();
  return (
    <AdminSignedIn>
      <ClientPage key={id} id={id} />
    </AdminSignedIn>
  );
}

function ClientPage({ id }: { id: string }) {
  const client = useClient(id);

  return (
    <AdminRecordShell title={client.data?.name ?? "Client"} back={{ to: USERS_TAB, label: "Users" }}>
      {client.data ? (
        <>
          <ClientSummary client={client.data} />
          <ClientAssignees userId={id} clientName={client.data.name} />
          <ClientDocumentsSection id={id} clientName={client.data.name} verified={client.data.email_verified} />
        </>
      ) : httpStatus(client.error) === 404 ? (
        <ClientNotOpened who={{ user_id: id }} notFoundTitle="Client not found" level={1} back={{ to: USERS_TAB, label: "Back to Users" }} />
      ) : isRetryableAdminLoadError(client.error) ? (
        <LoadError message="Failed to load the client" onRetry={() => void client.refetch()} isRetrying={client.isFetching} />
      ) : (
        <PageSpinner label="Loading the client…" />
      )}
    </AdminRecordShell>
  );
}

/** The client's folders and documents, where the firm's uploads go into the folder shown (`?folder=` in the URL); `id` is a client person's id or an account's (the account page). */
export function ClientDocumentsSection({ id, clientName, verified }: { id: string; clientName: string; verified: boolean }) {
  const [searchParams, setSearchParams] = useSearchParams();
  // An account that never confirmed its address may be a squatter's: the firm says so before sharing (docs/security.md, Round 3).
  const [shareConfirmed, setShareConfirmed] = useState(verified);
  const folderId = searchParams.get("folder") || null;
  const folders = useClientFolders(id);
  const refresh = useRefreshClientFiles(id);
  const uploads = useUploadQueue({ url: `/api/admin/users/${id}/documents`, onStored: refresh });
  const path = folderPath(folders.data ?? [], folderId);
  const current = path.at(-1) ?? null;
  const unknownFolder = folderId !== null && folders.isSuccess && current === null;
  // Other parameters of the page (the record's section) stay as they are.
  const openFolder = useCallback(
    (next: string | null, replace = false) =>
      setSearchParams(
        (current) => {
          const params = new URLSearchParams(current);
          if (next) params.set("folder", next);
          else params.delete("folder");
          return params;
        },
        { replace },
      ),
    [setSearchParams],
  );

  useEffect(() => {
    if (unknownFolder) openFolder(null, true);
  }, [unknownFolder, openFolder]);

  return (
    <section aria-labelledby="client-documents-heading" className="grid gap-4">
      <div className="grid gap-1">
        <h2 id="client-documents-heading" className="text-xl font-semibold">
          Documents
        </h2>
        <p className="text-sm text-muted-foreground">
          What you upload here is shared with {clientName}: it appears in their documents marked as from the firm, and they are emailed that it is
          waiting.
        </p>
      </div>
      {folders.isError ? (
        <LoadError message="The client's folders could not be loaded." onRetry={() => void folders.refetch()} isRetrying={folders.isFetching} />
      ) : folders.isPending || (folderId !== null && current === null) ? (
        <Spinner label="Loading folders…" className="w-full justify-center py-10" />
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <FolderBreadcrumb path={path} onNavigate={(next) => openFolder(next)} />
            <NewClientFolderDialog clientId={id} clientName={clientName} parentFolderId={current?.id ?? null} parentName={current?.name ?? null} />
          </div>
          {shareConfirmed ? (
            <UploadArea folderId={current?.id ?? null} folderName={current?.name ?? null} uploads={uploads}>
              <ClientFiles clientId={id} clientName={clientName} folders={folders.data} path={path} onOpenFolder={(next) => openFolder(next)} />
            </UploadArea>
          ) : (
            <>
              <div role="note" className="grid justify-items-start gap-3 rounded-xl border border-destructive/30 bg-card p-4 text-sm">
                <p>
                  <span className="font-medium">This account never confirmed its email address.</span> Anyone can register an address, so it may not
                  be {clientName}&apos;s. To be sure, invite the address from Invitations: accepting the invitation proves the mailbox and claims the
                  account.
                </p>
                <ConfirmAction
                  trigger={<Button variant="outline">Share with this account anyway</Button>}
                  title="Share with an unverified account?"
                  question={`Documents you upload here go to whoever registered this address, who may not be ${clientName}. Share anyway?`}
                  confirmLabel="Share anyway"
                  onConfirm={() => setShareConfirmed(true)}
                />
              </div>
              <ClientFiles clientId={id} clientName={clientName} folders={folders.data} path={path} onOpenFolder={(next) => openFolder(next)} />
            </>
          )}
        </>
      )}
    </section>
  );
}
