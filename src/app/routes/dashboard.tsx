import { useCallback, useEffect, useRef, useState } from "react";
import { ChevronDown, ClipboardList, Download, Trash2 } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { PortalSkeleton } from "@/components/ui/page-skeleton.tsx";
import { SkipLink } from "@/components/ui/skip-link.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { ScrollingTabsList, Tabs, TabsContent, TabsTrigger } from "@/components/ui/tabs.tsx";
import { VerifyEmailBanner } from "@/features/auth/verify-email-banner.tsx";
import { RecentActivityCard } from "@/features/activity/recent-activity-card.tsx";
import { AppointmentsTab } from "@/features/appointments/appointments-tab.tsx";
import { DocumentList, SearchResults } from "@/features/documents/document-list.tsx";
import { describeFilters, DocumentSearch, type SearchFilters } from "@/features/documents/document-search.tsx";
import { SortHeader } from "@/features/documents/sort-header.tsx";
import { StorageUsage } from "@/features/documents/storage-usage.tsx";
import { UploadArea } from "@/features/documents/upload-area.tsx";
import { useMoveDocument } from "@/features/documents/use-move-document.ts";
import { type UploadQueueHandle, useUploadQueue } from "@/features/documents/use-upload-queue.ts";
import { FolderBreadcrumb } from "@/features/folders/folder-breadcrumb.tsx";
import { FolderGrid } from "@/features/folders/folder-grid.tsx";
import { childFolders, folderPath } from "@/features/folders/folder-path.ts";
import { NewFolderDialog } from "@/features/folders/new-folder-dialog.tsx";
import { useFolders } from "@/features/folders/use-folders.ts";
import { useMoveFolder } from "@/features/folders/use-move-folder.ts";
import { MessagesTab } from "@/features/messages/messages-tab.tsx";
import { useMessageEvents, useMessagesUnread } from "@/features/messages/use-messages.ts";
import { OrganizersCard } from "@/features/organizers/organizers-card.tsx";
import { PortalTopBar } from "@/features/portal/portal-top-bar.tsx";
import { SignaturesCard } from "@/features/signatures/signatures-card.tsx";
import { RequestsCard } from "@/features/requests/requests-card.tsx";
import { useOwnRequests } from "@/features/requests/use-own-requests.ts";
import { ServicesTab } from "@/features/services-info/services-tab.tsx";
import { TaxFormsTab } from "@/features/tax-forms/tax-forms-tab.tsx";
import { TrashView } from "@/features/trash/trash-view.tsx";
import { type DocumentSort, parseDocumentSort } from "@/lib/document-sort.ts";
import type { DragItem } from "@/lib/drag-item.ts";
import { trpc } from "@/lib/trpc.ts";
import { useFocusRescue } from "@/lib/use-focus-rescue.ts";
import { useCurrentUser } from "@/lib/use-current-user.ts";
import { SignInFirst } from "./sign-in-first.tsx";

const TABS = [
  { value: "documents", label: "Documents" },
  { value: "messages", label: "Messages" },
  { value: "appointments", label: "Appointments" },
  { value: "tax-forms", label: "Tax Forms" },
  { value: "services", label: "Services" },
] as const;
type TabValue = (typeof TABS)[number]["value"];

const isTab = (value: string | null): value is TabValue => TABS.some((tab) => tab.value === value);

/**
 * The dashboard's place lives in the URL (`?tab=documents&folder=<id>`, and in the documents tab
 * `view=trash`, the search `q` and the order `sort`/`order`), so reload, the browser's Back and a
 * shared link all land where the user was. Moves and sorts are new history entries; typing in the
 * search box replaces the entry, so Back does not step through every pause in the typing.
 */
function useDashboardLocation() {
  const [searchParams, setSearchParams] = useSearchParams();
  const tabParam = searchParams.get("tab");
  const tab: TabValue = isTab(tabParam) ? tabParam : "documents";
  const folderId = searchParams.get("folder") || null;
  const view = searchParams.get("view") === "trash" ? "trash" : "files";
  const q = searchParams.get("q") ?? "";
  const sort = parseDocumentSort(searchParams);
  const sourceParam = searchParams.get("source");
  const yearParam = Number(searchParams.get("year"));
  const filters: SearchFilters = {
    source: sourceParam === "firm" || sourceParam === "client" ? sourceParam : null,
    year: Number.isInteger(yearParam) && yearParam >= 1970 && yearParam <= 9999 ? yearParam : null,
  };

  type Changes = { tab?: TabValue; folder?: string | null; trash?: boolean; q?: string; sort?: DocumentSort; filters?: SearchFilters };
  const go = useCallback(
    (changes: Changes, options: { replace?: boolean } = {}) => {
      setSearchParams((current) => {
        const next = new URLSearchParams(current);
        const put = (name: string, value: string | null | undefined) => {
          if (value === undefined) return;
          if (value) next.set(name, value);
          else next.delete(name);
        };
        if (changes.tab) next.set("tab", changes.tab);
        put("folder", changes.folder);
        put("view", changes.trash === undefined ? undefined : changes.trash ? "trash" : null);
        put("q", changes.q);
        put("source", changes.filters && changes.filters.source);
        put("year", changes.filters && (changes.filters.year === null ? null : String(changes.filters.year)));
        put("sort", changes.sort?.sort);
        put("order", changes.sort?.order);
        return next;
      }, options);
    },
    [setSearchParams],
  );

  return {
    tab,
    folderId,
    view,
    q,
    filters,
    sort,
    openTab: (value: TabValue) => go({ tab: value }),
    /** Opening a folder leaves the search (and its filters) and the trash. */
    openFolder: useCallback(
      (id: string | null, options?: { replace?: boolean }) =>
        go({ tab: "documents", folder: id, q: "", filters: { source: null, year: null }, trash: false }, options),
      [go],
    ),
    search: useCallback((value: string) => go({ q: value }, { replace: true }), [go]),
    filter: (value: SearchFilters) => go({ filters: value }, { replace: true }),
    sortBy: (value: DocumentSort) => go({ sort: value }),
    showTrash: (show: boolean) => go({ trash: show }),
  };
}

type DashboardLocation = ReturnType<typeof useDashboardLocation>;

export function DashboardPage() {
  const { user, status } = useCurrentUser();
  const location = useDashboardLocation();
  // Here rather than in the documents tab: uploads go on while the client looks at another tab.
  const uploads = useUploadQueue();

  if (status === "unknown") return <PortalSkeleton label="Checking your session…" />;
  if (!user) return <SignInFirst portal="client" />;
  return <SignedInDashboard user={user} location={location} uploads={uploads} />;
}

function NoAccount({ user }: { user: SignedInDashboardProps["user"] }) {
  return (
    <div className="min-h-dvh bg-background">
      <title>Dashboard | Client Portal</title>
      <SkipLink />
      <PortalTopBar userName={user.name} email={user.email} />
      <main id="main" tabIndex={-1} className="mx-auto grid max-w-content grid-cols-1 gap-4 px-4 py-5 outline-none sm:gap-6 sm:px-6 sm:py-10">
        <h1 className="text-xl font-semibold break-words sm:text-3xl">No client account is open for you</h1>
        {user.is_admin ? (
          // The firm's people have no client account (docs/security.md, "Round 4").
          <p className="text-muted-foreground">
            This login is one of the firm&apos;s, and the firm&apos;s people have no client account. Clients&apos; documents, requests and messages
            are in the{" "}
            <Link to="/admin" className="font-medium text-foreground underline underline-offset-4">
              admin portal
            </Link>
            .
          </p>
        ) : (
          <p className="text-muted-foreground">
            You are not part of any client account here any more, so there are no documents, requests or messages to show. If you think this is a
            mistake, contact your firm.
          </p>
        )}
      </main>
    </div>
  );
}

type SignedInDashboardProps = {
  user: NonNullable<ReturnType<typeof useCurrentUser>["user"]>;
  location: DashboardLocation;
  uploads: UploadQueueHandle;
};

function SignedInDashboard({ user, location, uploads }: SignedInDashboardProps) {
  // Here rather than in the Messages tab: the tab's unread count follows while another tab is open.
  const { polling } = useMessageEvents();
  const unread = useMessagesUnread(polling);
  // Removed from their only account (or its portal access turned off): nothing of it is shown, and
  // the page says why rather than failing box by box.
  const accounts = trpc.accounts.list.useQuery();
  // "Welcome" on the first sign-in, "Welcome back" after; this session's answer does not change.
  const greeting = trpc.auth.greeting.useQuery(undefined, { staleTime: Infinity, retry: false });
  if (accounts.data?.length === 0) return <NoAccount user={user} />;

  return (
    <div className="min-h-dvh bg-background">
      <title>Dashboard | Client Portal</title>
      <SkipLink />
      <PortalTopBar userName={user.name} email={user.email} />
      <main id="main" tabIndex={-1} className="mx-auto grid max-w-content grid-cols-1 gap-4 px-4 py-5 outline-none sm:gap-6 sm:px-6 sm:py-10">
        {!user.email_verified && <VerifyEmailBanner email={user.email} />}
        <div className="grid gap-1">
          {/* Hidden (its room kept) until the server says whether this is the person's first sign-in. */}
          <h1 className={`text-xl font-semibold break-words sm:text-3xl ${greeting.isPending ? "invisible" : ""}`}>
            {greeting.data?.returning === false ? "Welcome" : "Welcome back"}, {user.name}!
          </h1>
          <p className="hidden text-muted-foreground sm:block">Your documents, appointments and tax information in one secure place.</p>
        </div>
        <SignaturesCard />
        <FoldingRequests />
        <OrganizersCard />
        <Tabs value={location.tab} onValueChange={(value) => isTab(value) && location.openTab(value)} activationMode="manual">
          {/* One row on every width; on a phone it scrolls sideways, with a fade and an arrow where more tabs are. */}
          <ScrollingTabsList value={location.tab} aria-label="Dashboard sections" className="flex justify-start sm:inline-flex sm:w-auto">
            {TABS.map((tab) => (
              <TabsTrigger
                key={tab.value}
                value={tab.value}
                aria-label={tab.value === "messages" && unread > 0 ? `Messages ${unreadShown(unread)} unread` : undefined}
              >
                {tab.label}
                {tab.value === "messages" && unread > 0 && (
                  <span
                    aria-hidden="true"
                    className="ml-1.5 rounded-full bg-accent px-1.5 text-xs leading-5 font-semibold text-accent-foreground tabular-nums"
                  >
                    {unreadShown(unread)}
                  </span>
                )}
              </TabsTrigger>
            ))}
          </ScrollingTabsList>
          <TabsContent value="documents">
            {location.view === "trash" ? (
              <TrashView onBack={() => location.showTrash(false)} />
            ) : (
              <DocumentsSection location={location} uploads={uploads} />
            )}
          </TabsContent>
          <TabsContent value="messages">
            <MessagesTab polling={polling} />
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
        <RecentActivityCard />
      </main>
    </div>
  );
}

/**
 * The firm's requests above the tabs while one waits for the client; once every one is submitted
 * or done, one line that says so and opens the card, so finished business does not push the
 * sections down (a phone showed a submitted request as 1,000 px above the tabs). Marking the last
 * one submitted folds the card, and the keyboard lands on that line, which tells the result.
 */
function FoldingRequests() {
  const requests = useOwnRequests();
  const [expanded, setExpanded] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useFocusRescue(
    wrapper,
    useCallback(() => toggle.current ?? wrapper.current?.querySelector<HTMLElement>("[role=region]") ?? null, []),
  );

  const list = requests.data ?? [];
  const waiting = list.some((request) => request.status === "open");
  const foldable = list.length > 0 && !waiting;
  const submitted = list.filter((request) => request.status === "submitted").length;
  const done = list.length - submitted;
  const summary = [submitted > 0 && `${submitted} submitted, waiting for your firm`, done > 0 && `${done} done`].filter(Boolean).join(" · ");

  return (
    // display: contents, so that with no request there is no empty row in the page's grid.
    <div ref={wrapper} className="contents">
      {foldable && (
        <button
          ref={toggle}
          type="button"
          aria-expanded={expanded}
          aria-controls={expanded ? "requests-fold" : undefined}
          onClick={() => setExpanded((open) => !open)}
          className="flex min-h-11 w-full cursor-pointer items-center gap-3 rounded-xl border bg-card px-4 py-2.5 text-left text-sm transition-colors hover:bg-muted/60"
        >
          <ClipboardList aria-hidden="true" className="size-5 shrink-0 text-accent" />
          <span className="grid min-w-0 flex-1">
            <span className="font-medium">Requests from your firm</span>
            <span className="text-muted-foreground">{summary}</span>
          </span>
          <span className="shrink-0 text-muted-foreground">{expanded ? "Hide" : "Show"}</span>
          <ChevronDown
            aria-hidden="true"
            className={`size-4 shrink-0 transition-transform motion-reduce:transition-none ${expanded ? "rotate-180" : ""}`}
          />
        </button>
      )}
      {(!foldable || expanded) && (
        <div id="requests-fold" className="contents">
          <RequestsCard />
        </div>
      )}
    </div>
  );
}

const unreadShown = (count: number) => (count > 99 ? "99+" : String(count));

type DocumentsSectionProps = {
  location: DashboardLocation;
  uploads: UploadQueueHandle;
};

/**
 * Folders and documents of the current folder in one list, documents first on the page: the
 * folders feature and the documents feature side by side, with the search, the upload strip and
 * the column headers above them. A search shows matching documents from every folder instead.
 */
function DocumentsSection({ location, uploads }: DocumentsSectionProps) {
  const { folderId, q, filters, sort, openFolder: onOpenFolder } = location;
  const filtered = describeFilters(filters);
  const searching = q !== "" || filtered !== "";
  const folders = useFolders();
  const allFolders = folders.data ?? [];
  const path = folderPath(allFolders, folderId);
  const currentFolder = path.at(-1) ?? null;
  // A folder id from the URL that is not (or no longer) one of the user's folders: back to the root.
  const unknownFolder = folderId !== null && folders.isSuccess && currentFolder === null;
  const contentRef = useRef<HTMLDivElement>(null);
  const moveFocus = useRef(false);
  const moveDocument = useMoveDocument();
  const moveFolder = useMoveFolder();

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
  }, [currentId, q]);

  const open = (id: string | null) => {
    moveFocus.current = true;
    onOpenFolder(id);
  };

  const dropOn = (item: DragItem, targetId: string | null, targetName: string | null) => {
    const moved = { id: item.id, name: item.name };
    if (item.kind === "document") moveDocument(moved, targetId, targetName);
    else moveFolder(moved, targetId, targetName);
  };

  // Until the folder from the URL is known, nothing may be created or uploaded in the wrong place.
  if (folderId !== null && currentFolder === null) {
    // Spec: a failed load is only logged.
    return folders.isError ? null : <Spinner label="Loading folders…" className="w-full justify-center py-10" />;
  }
  const folderName = currentFolder?.name ?? null;
  const subfolders = childFolders(allFolders, currentId);
  if (sort?.sort === "name" && sort.order === "desc") subfolders.reverse();
  const contentsLabel = searching
    ? `Search results for ${[q, filtered].filter(Boolean).join(", ")}`
    : folderName === null
      ? "Contents of the top level"
      : `Contents of folder ${folderName}`;

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold">Documents</h2>
        {/* On a phone Trash and Download show their icons only, so the heading and its buttons keep to one row. */}
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" className="max-sm:w-11 max-sm:px-0" onClick={() => location.showTrash(true)}>
            <Trash2 aria-hidden="true" />
            <span className="max-sm:sr-only">Trash</span>
          </Button>
          <Button asChild variant="outline" className="max-sm:w-11 max-sm:px-0">
            {currentFolder === null ? (
              <a href="/api/folders/root/download" download>
                <Download aria-hidden="true" />
                <span className="max-sm:sr-only">Download all</span>
              </a>
            ) : (
              <a href={`/api/folders/${currentFolder.id}/download`} download>
                <Download aria-hidden="true" />
                <span className="max-sm:sr-only">Download folder</span>
              </a>
            )}
          </Button>
          <NewFolderDialog parentFolderId={currentId} />
        </div>
      </div>
      <DocumentSearch q={q} onSearch={location.search} filters={filters} onFilter={location.filter} />
      {searching ? (
        <p className="text-sm text-muted-foreground">
          {q ? (
            <>
              Documents in all folders whose name or text matches <span className="font-medium text-foreground">&quot;{q}&quot;</span>
            </>
          ) : (
            "Documents in all folders"
          )}
          {filtered && `: ${filtered}`}
        </p>
      ) : (
        // At the root a phone leaves out the lone "Root" crumb: the upload strip says where files go.
        <div className={currentFolder === null ? "max-sm:hidden" : undefined}>
          <FolderBreadcrumb path={path} onNavigate={open} onDropItem={dropOn} />
        </div>
      )}
      <UploadArea folderId={currentId} folderName={folderName} uploads={uploads}>
        <div ref={contentRef} tabIndex={-1} role="region" aria-label={contentsLabel} className="overflow-hidden rounded-xl border bg-card divide-y">
          <SortHeader sort={sort} onSort={location.sortBy} />
          {searching ? (
            <SearchResults q={q} filters={filters} folders={allFolders} sort={sort} onOpenFolder={open} />
          ) : (
            <>
              {folders.isPending && <Spinner label="Loading folders…" className="w-full justify-center py-3" />}
              <FolderGrid
                folders={subfolders}
                allFolders={allFolders}
                subfolderCount={(id) => childFolders(allFolders, id).length}
                onOpen={open}
                onDropItem={(item, folder) => dropOn(item, folder.id, folder.name)}
              />
              <DocumentList folderId={currentId} folderName={folderName} folders={allFolders} sort={sort} />
            </>
          )}
        </div>
      </UploadArea>
      <StorageUsage />
    </div>
  );
}
