import { useEffect, useRef } from "react";
import { Navigate, useSearchParams } from "react-router";
import { PortalSkeleton } from "@/components/ui/page-skeleton.tsx";
import { SkipLink } from "@/components/ui/skip-link.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs.tsx";
import { VerifyEmailBanner } from "@/features/auth/verify-email-banner.tsx";
import { AppointmentsTab } from "@/features/appointments/appointments-tab.tsx";
import { DocumentList } from "@/features/documents/document-list.tsx";
import { StorageUsage } from "@/features/documents/storage-usage.tsx";
import { UploadArea } from "@/features/documents/upload-area.tsx";
import { FolderBreadcrumb } from "@/features/folders/folder-breadcrumb.tsx";
import { FolderGrid } from "@/features/folders/folder-grid.tsx";
import { childFolders, folderPath } from "@/features/folders/folder-path.ts";
import { NewFolderDialog } from "@/features/folders/new-folder-dialog.tsx";
import { useFolders } from "@/features/folders/use-folders.ts";
import { PortalTopBar } from "@/features/portal/portal-top-bar.tsx";
import { ServicesTab } from "@/features/services-info/services-tab.tsx";
import { TaxFormsTab } from "@/features/tax-forms/tax-forms-tab.tsx";
import { useCurrentUser } from "@/lib/use-current-user.ts";

const TABS = [
  { value: "documents", label: "Documents" },
  { value: "appointments", label: "Appointments" },
  { value: "tax-forms", label: "Tax Forms" },
  { value: "services", label: "Services" },
] as const;
type TabValue = (typeof TABS)[number]["value"];

const isTab = (value: string | null): value is TabValue => TABS.some((tab) => tab.value === value);

/**
 * The dashboard's place lives in the URL (`?tab=documents&folder=<id>`), so reload, the browser's
 * Back and a shared link all land where the user was. Each move is a new history entry.
 */
function useDashboardLocation() {
  const [searchParams, setSearchParams] = useSearchParams();
  const tabParam = searchParams.get("tab");
  const tab: TabValue = isTab(tabParam) ? tabParam : "documents";
  const folderId = searchParams.get("folder") || null;

  const go = (changes: { tab?: TabValue; folder?: string | null }, options: { replace?: boolean } = {}) => {
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      if (changes.tab) next.set("tab", changes.tab);
      if (changes.folder !== undefined) {
        if (changes.folder) next.set("folder", changes.folder);
        else next.delete("folder");
      }
      return next;
    }, options);
  };

  return {
    tab,
    folderId,
    openTab: (value: TabValue) => go({ tab: value }),
    openFolder: (id: string | null, options?: { replace?: boolean }) => go({ tab: "documents", folder: id }, options),
  };
}

export function DashboardPage() {
  const { user, status } = useCurrentUser();
  const location = useDashboardLocation();

  if (status === "unknown") return <PortalSkeleton label="Checking your session…" />;
  if (!user) return <Navigate to="/" replace />;

  return (
    <div className="min-h-dvh bg-background">
      <title>Dashboard | Client Portal</title>
      <SkipLink />
      <PortalTopBar userName={user.name} email={user.email} />
      <main id="main" tabIndex={-1} className="mx-auto grid max-w-content grid-cols-1 gap-4 px-4 py-5 outline-none sm:gap-6 sm:px-6 sm:py-10">
        {!user.email_verified && <VerifyEmailBanner email={user.email} />}
        <div className="grid gap-1">
          <h1 className="text-xl font-semibold break-words sm:text-3xl">Welcome back, {user.name}!</h1>
          <p className="hidden text-muted-foreground sm:block">Your documents, appointments and tax information in one secure place.</p>
        </div>
        <Tabs value={location.tab} onValueChange={(value) => isTab(value) && location.openTab(value)} activationMode="manual">
          {/* One row on every width; on a phone it scrolls sideways rather than wrapping into a grid. */}
          <TabsList aria-label="Dashboard sections" className="flex w-full justify-start sm:inline-flex sm:w-auto">
            {TABS.map((tab) => (
              <TabsTrigger key={tab.value} value={tab.value}>
                {tab.label}
              </TabsTrigger>
            ))}
          </TabsList>
          <TabsContent value="documents">
            <DocumentsSection folderId={location.folderId} onOpenFolder={location.openFolder} />
          </TabsContent>
          <TabsContent value="appointments">
            <AppointmentsTab />
          </TabsContent>
          <TabsContent value="tax-forms">
            <TaxFormsTab onOpenDocuments={() => location.openFolder(null)} />
          </TabsContent>
          <TabsContent value="services">
            <ServicesTab />
          </TabsContent>
        </Tabs>
      </main>
    </div>
  );
}

type DocumentsSectionProps = {
  folderId: string | null;
  onOpenFolder: (id: string | null, options?: { replace?: boolean }) => void;
};

/**
 * Folders and documents of the current folder in one list, documents first on the page: the
 * folders feature and the documents feature side by side, with the upload strip above them.
 */
function DocumentsSection({ folderId, onOpenFolder }: DocumentsSectionProps) {
  const folders = useFolders();
  const allFolders = folders.data ?? [];
  const path = folderPath(allFolders, folderId);
  const currentFolder = path.at(-1) ?? null;
  // A folder id from the URL that is not (or no longer) one of the user's folders: back to the root.
  const unknownFolder = folderId !== null && folders.isSuccess && currentFolder === null;
  const contentRef = useRef<HTMLDivElement>(null);
  const moveFocus = useRef(false);

  useEffect(() => {
    if (unknownFolder) onOpenFolder(null, { replace: true });
  }, [unknownFolder, onOpenFolder]);

  // After opening a folder (or a crumb), the keyboard continues in the folder's content, not on a
  // button that no longer exists.
  const currentId = currentFolder?.id ?? null;
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    contentRef.current?.focus();
  }, [currentId]);

  const open = (id: string | null) => {
    moveFocus.current = true;
    onOpenFolder(id);
  };

  // Until the folder from the URL is known, nothing may be created or uploaded in the wrong place.
  if (folderId !== null && currentFolder === null) {
    // Spec: a failed load is only logged.
    return folders.isError ? null : <Spinner label="Loading folders…" className="w-full justify-center py-10" />;
  }
  const folderName = currentFolder?.name ?? null;

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold">Documents</h2>
        <NewFolderDialog parentFolderId={currentId} />
      </div>
      <FolderBreadcrumb path={path} onNavigate={open} />
      <UploadArea folderId={currentId} folderName={folderName}>
        <div
          ref={contentRef}
          tabIndex={-1}
          role="region"
          aria-label={folderName === null ? "Contents of the root folder" : `Contents of folder ${folderName}`}
          className="overflow-hidden rounded-xl border bg-card divide-y"
        >
          {folders.isPending && <Spinner label="Loading folders…" className="w-full justify-center py-3" />}
          <FolderGrid folders={childFolders(allFolders, currentId)} subfolderCount={(id) => childFolders(allFolders, id).length} onOpen={open} />
          <DocumentList folderId={currentId} folderName={folderName} />
        </div>
      </UploadArea>
      <StorageUsage />
    </div>
  );
}
