import "./lib/zod-jitless.ts";
import { type ComponentType, lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { AppRouter } from "./app/router.tsx";
import { usePageLoaded } from "./lib/use-page-loaded.ts";
import "./styles.css";

// If its chunk cannot load (a deploy since the page loaded, a dropped connection), the page goes on
// without toasts rather than unmounting: this sits outside the route error boundary.
const Toaster = lazy(() =>
  import("./components/ui/toaster.tsx").then(
    (m): { default: ComponentType } => ({ default: m.Toaster }),
    () => ({ default: () => null }),
  ),
);

// Mounted once the page has loaded; a toast raised before that still shows (sonner replays them).
function DeferredToaster() {
  return usePageLoaded() ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

const rootElement = document.getElementById("root");
if (!rootElement) throw new Error("index.html has no #root element");

createRoot(rootElement).render(
  <StrictMode>
    <AppRouter />
    <DeferredToaster />
  </StrictMode>,
);
