import "./lib/zod-jitless.ts";
import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { AppRouter } from "./app/router.tsx";
import "./styles.css";

// Loaded after the first paint; a toast raised before it mounts still shows (sonner replays them).
const Toaster = lazy(async () => ({ default: (await import("./components/ui/toaster.tsx")).Toaster }));

const rootElement = document.getElementById("root");
if (!rootElement) throw new Error("index.html has no #root element");

createRoot(rootElement).render(
  <StrictMode>
    <AppRouter />
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  </StrictMode>,
);
