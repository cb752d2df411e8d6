import "./lib/zod-jitless.ts";
import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { AppRouter } from "./app/router.tsx";
import { usePageLoaded } from "./lib/use-page-loaded.ts";
import "./styles.css";

const Toaster = lazy(async () => ({ default: (await import("./components/ui/toaster.tsx")).Toaster }));

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
