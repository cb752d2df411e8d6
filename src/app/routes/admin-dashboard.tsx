import { ExternalLink, LogOut } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { AdminBrand } from "@/components/admin-brand.tsx";
import { Button } from "@/components/ui/button.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { PageSpinner } from "@/components/ui/page-spinner.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs.tsx";
import { useAdminLogout } from "@/features/admin-auth/use-admin-logout.ts";
import { ActivityTab } from "@/features/activity/activity-tab.tsx";
import { InboxTab } from "@/features/admin-inbox/inbox-tab.tsx";
import { useInboxUnread } from "@/features/admin-inbox/use-inbox.ts";
import { MessagesView } from "@/features/admin-messages/messages-view.tsx";
import { useFirmMessageEvents, useFirmMessagesUnread } from "@/features/admin-messages/use-admin-messages.ts";
import { AppointmentsTab } from "@/features/admin-appointments/appointments-tab.tsx";
import { ConsultationsTab } from "@/features/admin-consultations/consultations-tab.tsx";
import { DocumentsTab } from "@/features/admin-documents/documents-tab.tsx";
import { OverviewTab } from "@/features/admin-overview/overview-tab.tsx";
import { RequestsTab } from "@/features/admin-requests/requests-tab.tsx";
import { OrganizersTab } from "@/features/admin-organizers/organizers-tab.tsx";
import { useAdminStats } from "@/features/admin-overview/use-admin-stats.ts";
import { ResetWelcomeVideoButton } from "@/features/admin-site-content/reset-welcome-video-button.tsx";
import { SiteContentEditor } from "@/features/admin-site-content/site-content-editor.tsx";
import { LegalPagesEditor } from "@/features/admin-site-content/legal-pages-editor.tsx";
import { TaxYearSetting } from "@/features/admin-firm-setup/tax-year-setting.tsx";
import { SiteMediaSettings } from "@/features/admin-site-media/site-media-settings.tsx";
import { TestimonialsPublishing } from "@/features/admin-site-media/testimonials-publishing.tsx";
import { TestimonialEditor } from "@/features/admin-testimonials/testimonial-editor.tsx";
import { ServicesEditor } from "@/features/admin-site-content/services-editor.tsx";
import { UsersTab } from "@/features/admin-users/users-tab.tsx";
import { ClientsTab } from "@/features/admin-accounts/clients-tab.tsx";
import { InvitationsPanel } from "@/features/admin-invitations/invitations-panel.tsx";
import { RegistrationSetting } from "@/features/admin-invitations/registration-setting.tsx";
import { AccountSettings } from "@/features/account-settings/account-settings.tsx";
import { AccessLogDownload } from "@/features/admin-security/access-log-download.tsx";
import { IncidentResponse } from "@/features/admin-security/incident-response.tsx";
import { RequireTwoFactorSetting } from "@/features/admin-security/require-two-factor-setting.tsx";
import { DocumentNamesSetting } from "@/features/admin-notifications/document-names-setting.tsx";
import { StaffNamesSetting } from "@/features/admin-activity/staff-names-setting.tsx";
import { DisposalDue } from "@/features/admin-retention/disposal-due.tsx";
import { RetentionRules } from "@/features/admin-retention/retention-rules.tsx";
import { isRetryableAdminLoadError } from "@/lib/admin-load-failure.ts";
import { useCurrentUser } from "@/lib/use-current-user.ts";
import { useAdminMe } from "@/lib/use-admin-me.ts";
import { TeamTab } from "@/features/admin-team/team-tab.tsx";
import { RIGHT_LABELS } from "@/features/admin-team/rights-fieldset.tsx";
import type { StaffRight } from "@server/domains/staff/schemas.ts";
import { AdminSignedIn } from "./sign-in-first.tsx";

/** Each tab and the rights that open it (any one of them); none: every person of the firm (docs/security.md, "Staff roles and rights"). */
const TABS = [
  { value: "overview", label: "Overview", rights: [] },
  { value: "inbox", label: "Inbox", rights: [] },
  { value: "messages", label: "Messages", rights: ["messages"] },
  { value: "users", label: "Clients", rights: [] },
  { value: "documents", label: "Documents", rights: ["documents"] },
  { value: "requests", label: "Requests", rights: ["requests"] },
  { value: "organizers", label: "Organizers", rights: ["requests"] },
  { value: "site", label: "Site", rights: ["site", "settings"] },
  { value: "appointments", label: "Appointments", rights: ["appointments"] },
  { value: "consultations", label: "Consultations", rights: ["manage_clients"] },
  { value: "activity", label: "Activity", rights: ["activity"] },
  { value: "team", label: "Team", rights: ["staff"] },
  { value: "account", label: "Account", rights: [] },
] as const satisfies ReadonlyArray<{ value: string; label: string; rights: readonly StaffRight[] }>;
type TabValue = (typeof TABS)[number]["value"];

/** /admin/dashboard: the admin sign-in first without a session. */
export function AdminDashboardPage() {
  return (
    <AdminSignedIn>
      <AdminDashboard />
    </AdminSignedIn>
  );
}

function AdminDashboard() {
  // The stats answer first: a 403 here sends the visitor to /admin (useAdminStats).
  const stats = useAdminStats();
  const { user } = useCurrentUser();
  const { me, may } = useAdminMe();
  const logout = useAdminLogout();
  const unread = useInboxUnread();
  const mayMessage = Boolean(stats.data) && may("messages");
  const { polling: pollMessages } = useFirmMessageEvents(mayMessage);
  const unreadMessages = useFirmMessagesUnread(pollMessages, mayMessage);
  const badgeCount = (value: TabValue) => (value === "inbox" ? unread : value === "messages" ? unreadMessages : 0);
  const [searchParams, setSearchParams] = useSearchParams();
  // Only the tabs the person may use are offered; a link to another one opens the Overview, which
  // says which right it needs and who gives it.
  const tabs = TABS.filter((t) => t.rights.length === 0 || t.rights.some((right) => may(right)));
  const requested = searchParams.get("tab");
  const tab: TabValue = tabs.find((t) => t.value === requested)?.value ?? "overview";
  const lacked = me ? TABS.find((t) => t.value === requested && !tabs.includes(t)) : undefined;
  const shown = (value: TabValue) => tabs.some((t) => t.value === value);

  if (!stats.data || !me) {
    if (!isRetryableAdminLoadError(stats.error)) return <PageSpinner label="Loading admin data…" />;
    return (
      <main className="grid min-h-dvh place-items-center bg-muted/40 p-4">
        <title>Admin dashboard | Client Portal</title>
        <LoadError
          message="Failed to load admin data"
          onRetry={() => void stats.refetch()}
          isRetrying={stats.isFetching}
          className="w-full max-w-md"
        />
      </main>
    );
  }

  return (
    <div className="min-h-dvh bg-muted/40">
      <title>Admin dashboard | Client Portal</title>
      <header className="border-b bg-card">
        <div className="mx-auto flex max-w-content items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <AdminBrand to="/" />
          <div className="flex items-center gap-2 sm:gap-3">
            {user && <span className="hidden text-sm text-muted-foreground md:inline">{user.name}</span>}
            <Button asChild variant="ghost" size="sm" className="max-sm:hidden">
              <Link to="/">
                <ExternalLink aria-hidden="true" />
                View site
              </Link>
            </Button>
            <Button variant="outline" size="sm" disabled={logout.isPending} onClick={() => logout.mutate()}>
              <LogOut aria-hidden="true" />
              Logout
            </Button>
          </div>
        </div>
      </header>

      <main className="mx-auto max-w-content px-4 py-8 sm:px-6">
        <h1 className="text-2xl font-semibold sm:text-3xl">Admin dashboard</h1>
        <p className="mt-1 text-muted-foreground">Users, documents, appointments and the public site.</p>

        <Tabs value={tab} onValueChange={(value) => setSearchParams(value === "overview" ? {} : { tab: value }, { replace: true })} className="mt-6">
          <TabsList aria-label="Admin sections" className="grid h-auto w-full grid-cols-3 sm:inline-flex sm:w-auto">
            {tabs.map((t) => (
              <TabsTrigger
                key={t.value}
                value={t.value}
                aria-label={badgeCount(t.value) > 0 ? `${t.label} ${unreadShown(badgeCount(t.value))} unread` : undefined}
              >
                {t.label}
                {badgeCount(t.value) > 0 && (
                  <>
                    {" "}
                    <UnreadBadge count={badgeCount(t.value)} />
                  </>
                )}
              </TabsTrigger>
            ))}
          </TabsList>
          <TabsContent value="overview" className="grid gap-6">
            {lacked && <MissingRightNotice tab={lacked.label} rights={lacked.rights} />}
            <OverviewTab />
          </TabsContent>
          <TabsContent value="inbox">
            <InboxTab />
          </TabsContent>
          {shown("messages") && (
            <TabsContent value="messages">
              <MessagesView polling={pollMessages} />
            </TabsContent>
          )}
          <TabsContent value="users" className="grid gap-6">
            <ClientsTab mayManage={may("manage_clients")} />
            {may("manage_clients") && <InvitationsPanel />}
            <UsersTab mayManage={may("manage_clients")} mayOpenDocuments={may("documents")} />
          </TabsContent>
          {shown("documents") && (
            <TabsContent value="documents">
              <DocumentsTab />
            </TabsContent>
          )}
          {shown("requests") && (
            <TabsContent value="requests">
              <RequestsTab />
            </TabsContent>
          )}
          {shown("organizers") && (
            <TabsContent value="organizers">
              <OrganizersTab />
            </TabsContent>
          )}
          {shown("site") && (
            <TabsContent value="site">
              <SiteAreas maySite={may("site")} maySettings={may("settings")} isOwner={me.role === "owner"} mayReadLog={may("activity")} />
            </TabsContent>
          )}
          {shown("appointments") && (
            <TabsContent value="appointments">
              <AppointmentsTab />
            </TabsContent>
          )}
          {shown("consultations") && (
            <TabsContent value="consultations">
              <ConsultationsTab />
            </TabsContent>
          )}
          {shown("activity") && (
            <TabsContent value="activity" className="grid gap-6">
              {/* The access log needs the activity right only; Firm settings, its other place, needs the settings right too. */}
              <AccessLogDownload card />
              <ActivityTab />
            </TabsContent>
          )}
          {shown("team") && (
            <TabsContent value="team">
              <TeamTab me={me} />
            </TabsContent>
          )}
          <TabsContent value="account" className="max-w-3xl">
            <AccountSettings />
          </TabsContent>
        </Tabs>
      </main>
    </div>
  );
}

const SITE_AREAS = [
  { value: "content", label: "Site content", description: "What visitors see on the public site: texts, pictures, testimonials and legal pages." },
  {
    value: "settings",
    label: "Firm settings",
    description: "How the portal works for the firm and its clients: security, registration, names in emails, and responding to an incident.",
  },
  {
    value: "retention",
    label: "Retention",
    description: "How long documents are kept, what the portal deletes in the next 30 days, and legal holds.",
  },
] as const;

/**
 * The Site tab in two areas (issue 34): the public site's content apart from the firm's settings,
 * each shown to those with its right (`site`, `settings`), chosen by `?area=` so a link keeps it.
 * Every field in both saves when changed, with a toast saying what was saved.
 */
function SiteAreas({
  maySite,
  maySettings,
  isOwner,
  mayReadLog,
}: {
  maySite: boolean;
  maySettings: boolean;
  /** The owner alone ends every session (docs/safeguards.md). */
  isOwner: boolean;
  mayReadLog: boolean;
}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const areas = SITE_AREAS.filter((area) => (area.value === "content" ? maySite : maySettings));
  const area = areas.find((a) => a.value === searchParams.get("area")) ?? areas[0]!;
  const choose = (value: string) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set("area", value);
        return next;
      },
      { replace: true },
    );
  return (
    <div className="grid gap-6">
      {areas.length > 1 && (
        <nav aria-label="Site areas" className="inline-flex w-fit rounded-md border bg-card p-0.5">
          {areas.map((a) => (
            <Button
              key={a.value}
              variant={a.value === area.value ? "secondary" : "ghost"}
              size="sm"
              aria-current={a.value === area.value ? "page" : undefined}
              onClick={() => choose(a.value)}
            >
              {a.label}
            </Button>
          ))}
        </nav>
      )}
      <p className="-mt-3 text-sm text-muted-foreground">{area.description}</p>
      {area.value === "settings" ? (
        <>
          <RequireTwoFactorSetting />
          <RegistrationSetting />
          <DocumentNamesSetting />
          <StaffNamesSetting />
          <IncidentResponse isOwner={isOwner} mayReadLog={mayReadLog} />
        </>
      ) : area.value === "retention" ? (
        <>
          <RetentionRules />
          <DisposalDue />
        </>
      ) : (
        <SiteContentArea />
      )}
    </div>
  );
}

/** The public site's content, its testimonials and the welcome video's reset: the site right's area of the Site tab. */
function SiteContentArea() {
  return (
    <>
      <SiteContentEditor />
      <ServicesEditor />
      <SiteMediaSettings />
      <TestimonialsPublishing />
      <TestimonialEditor />
      <LegalPagesEditor />
      <TaxYearSetting />
      <section
        aria-labelledby="welcome-video-reset-heading"
        className="flex flex-wrap items-center justify-between gap-3 rounded-xl border bg-card p-6"
      >
        <div>
          <h2 id="welcome-video-reset-heading" className="text-lg font-semibold">
            Welcome video
          </h2>
          <p className="text-sm text-muted-foreground">For testing: show the welcome video again in this browser, as on a first visit.</p>
        </div>
        <ResetWelcomeVideoButton />
      </section>
    </>
  );
}

const unreadShown = (count: number) => (count > 99 ? "99+" : String(count));

/** The Inbox tab's count; the tab's label says it in words ("Inbox 3 unread"), starting with what is shown. */
function UnreadBadge({ count }: { count: number }) {
  return (
    <span aria-hidden="true" className="rounded-full bg-accent px-1.5 text-xs leading-5 font-semibold text-accent-foreground tabular-nums">
      {unreadShown(count)}
    </span>
  );
}

/**
 * A link to a tab the person's rights do not open (a colleague's link, an old bookmark): said, with
 * the right it needs and who gives it, rather than the Overview opening as if nothing were asked.
 */
function MissingRightNotice({ tab, rights }: { tab: string; rights: readonly StaffRight[] }) {
  const needed = rights.map((r) => `“${RIGHT_LABELS[r]}”`).join(" or ");
  return (
    <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      The link was to {tab}, which needs {rights.length > 1 ? `one of the ${needed} rights` : `the ${needed} right`}, and you do not have it, so the
      Overview opened instead. The firm&apos;s owner or an admin gives rights, on the Team tab.
    </p>
  );
}
