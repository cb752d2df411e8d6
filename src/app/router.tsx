import { Component, type ComponentType, lazy, type ReactNode, Suspense } from "react";
import { BrowserRouter, Route, Routes, useLocation } from "react-router";
import { PortalSkeleton } from "@/components/ui/page-skeleton.tsx";
import { PageSpinner } from "@/components/ui/page-spinner.tsx";
import { loadPortalMessages } from "@/lib/i18n.ts";
import { lazyWithApi } from "./lazy-with-api.tsx";
import { LandingPage } from "./routes/landing.tsx";
import { RouteErrorPage } from "./routes/route-error.tsx";

// The landing page ships in the entry bundle; the portals load on demand so it stays small.
// Declarative routes: the data router (loaders, actions, route `lazy`) would add some 50 KB of
// minified JavaScript to the first load that no page here uses.
// Each route's chunk loads with the portal's messages (the `portal` catalogue, docs/i18n.md).
function lazyRoute<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  return lazyWithApi(async () => (await Promise.all([load(), loadPortalMessages()]))[0]);
}
const ProfilePage = lazyRoute(async () => (await import("./routes/profile.tsx")).ProfilePage);
const DashboardPage = lazyRoute(async () => (await import("./routes/dashboard.tsx")).DashboardPage);
const AdminLoginPage = lazyRoute(async () => (await import("./routes/admin-login.tsx")).AdminLoginPage);
const SettingsPage = lazyRoute(async () => (await import("./routes/settings.tsx")).SettingsPage);
const TwoFactorPage = lazyRoute(async () => (await import("./routes/two-factor.tsx")).TwoFactorPage);
const AdminDashboardPage = lazyRoute(async () => (await import("./routes/admin-dashboard.tsx")).AdminDashboardPage);
const AdminClientPage = lazyRoute(async () => (await import("./routes/admin-client.tsx")).AdminClientPage);
const AdminAccountPage = lazyRoute(async () => (await import("./routes/admin-account.tsx")).AdminAccountPage);
const OrganizerPage = lazyRoute(async () => (await import("./routes/organizer.tsx")).OrganizerPage);
const SignaturePage = lazyRoute(async () => (await import("./routes/signature.tsx")).SignaturePage);
const VerifySignaturePage = lazyRoute(async () => (await import("./routes/verify-signature.tsx")).VerifySignaturePage);
const AdminAccessReportPage = lazyRoute(async () => (await import("./routes/admin-access-report.tsx")).AdminAccessReportPage);
// Rare enough to wait for its chunk; what it left in the first load paid for the language catalogue (docs/i18n.md).
const NotFoundPage = lazy(() => import("./routes/not-found.tsx").then((m) => ({ default: m.NotFoundPage })));
const LegalPage = lazy(() => import("./routes/legal.tsx").then((m) => ({ default: m.LegalPage })));

export function AppRouter() {
  return (
    <BrowserRouter>
      <RouteErrorBoundary>
        <Suspense fallback={<PageSpinner />}>
          <Routes>
            <Route index element={<LandingPage />} />
            <Route path="profile" element={<ProfilePage />} />
            <Route
              path="dashboard"
              element={
                <Suspense fallback={<PortalSkeleton />}>
                  <DashboardPage />
                </Suspense>
              }
            />
            <Route
              path="settings"
              element={
                <Suspense fallback={<PortalSkeleton />}>
                  <SettingsPage />
                </Suspense>
              }
            />
            <Route
              path="organizers/:id"
              element={
                <Suspense fallback={<PortalSkeleton />}>
                  <OrganizerPage />
                </Suspense>
              }
            />
            <Route
              path="signatures/:id"
              element={
                <Suspense fallback={<PortalSkeleton />}>
                  <SignaturePage />
                </Suspense>
              }
            />
            <Route path="signatures/verify" element={<VerifySignaturePage />} />
            <Route path="two-factor" element={<TwoFactorPage />} />
            <Route path="admin" element={<AdminLoginPage />} />
            <Route path="admin/dashboard" element={<AdminDashboardPage />} />
            <Route path="admin/users/:id" element={<AdminClientPage />} />
            <Route path="admin/accounts/:id" element={<AdminAccountPage />} />
            <Route path="admin/accounts/:id/access" element={<AdminAccessReportPage />} />
            <Route path="privacy" element={<LegalPage page="privacy" />} />
            <Route path="terms" element={<LegalPage page="terms" />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Suspense>
      </RouteErrorBoundary>
    </BrowserRouter>
  );
}

/** A page that fails to render or whose code cannot load shows the error page until the visitor moves on. */
function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <ErrorBoundary pathname={useLocation().pathname}>{children}</ErrorBoundary>;
}

type BoundaryProps = { pathname: string; children: ReactNode };
type BoundaryState = { failed: boolean; pathname: string };

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { failed: false, pathname: this.props.pathname };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.pathname === state.pathname ? null : { failed: false, pathname: props.pathname };
  }

  render() {
    return this.state.failed ? <RouteErrorPage /> : this.props.children;
  }
}
