import { createBrowserRouter, Outlet, RouterProvider } from "react-router";
import { PageSpinner } from "@/components/ui/page-spinner.tsx";
import { LandingPage } from "./routes/landing.tsx";
import { NotFoundPage } from "./routes/not-found.tsx";
import { RouteErrorPage } from "./routes/route-error.tsx";

// The landing page ships in the entry bundle; the portals load on demand so it stays small.
const router = createBrowserRouter([
  {
    Component: Outlet,
    HydrateFallback: PageSpinner,
    ErrorBoundary: RouteErrorPage,
    children: [
      { index: true, Component: LandingPage },
      {
        path: "profile",
        lazy: async () => ({ Component: (await import("./routes/profile.tsx")).ProfilePage }),
      },
      {
        path: "dashboard",
        lazy: async () => ({ Component: (await import("./routes/dashboard.tsx")).DashboardPage }),
      },
      {
        path: "admin",
        lazy: async () => ({ Component: (await import("./routes/admin-login.tsx")).AdminLoginPage }),
      },
      {
        path: "admin/dashboard",
        lazy: async () => ({ Component: (await import("./routes/admin-dashboard.tsx")).AdminDashboardPage }),
      },
      { path: "*", Component: NotFoundPage },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
