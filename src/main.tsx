import "./lib/zod-jitless.ts";
import { I18nProvider } from "@lingui/react";
import { type ComponentType, lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { AppRouter } from "./app/router.tsx";
import { activateLanguage, i18n, visitorLanguage } from "./lib/i18n.ts";
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

const render = () =>
  createRoot(rootElement).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <AppRouter />
        <DeferredToaster />
      </I18nProvider>
    </StrictMode>,
  );

// A Spanish-speaking visitor waits for the Spanish messages rather than seeing English first; if they
// cannot load, the page comes in English.
const language = visitorLanguage();
if (language === "en") render();
else void activateLanguage(language).then(render, render);
