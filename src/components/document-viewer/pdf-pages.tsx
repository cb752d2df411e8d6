/*
 * A PDF drawn by pdf.js, one page at a time at the width of its box. This module is loaded on
 * demand (document-viewer.tsx imports it lazily), so pdf.js and its worker stay out of every page's
 * first load. The worker is a file of our own origin, which the CSP's default-src 'self' allows.
 */
import { useEffect, useRef, useState } from "react";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";
import { Button } from "@/components/ui/button.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { fetchPreview, PreviewMessage, PreviewRefused } from "./preview-fetch.tsx";

GlobalWorkerOptions.workerSrc = workerUrl;

type PdfPagesProps = { url: string; name: string };

type Loaded = { status: "loading" } | { status: "failed"; message: string } | { status: "ready"; pdf: PDFDocumentProxy };

export function PdfPages({ url, name }: PdfPagesProps) {
  const [loaded, setLoaded] = useState<Loaded>({ status: "loading" });
  const [pageNumber, setPageNumber] = useState(1);

  useEffect(() => {
    const controller = new AbortController();
    let pdf: PDFDocumentProxy | undefined;
    fetchPreview(url, controller.signal)
      .then((response) => response.arrayBuffer())
      // No eval: fonts are drawn without compiling code, which the CSP (script-src 'self') forbids anyway.
      .then((bytes) => getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise)
      .then(
        (document) => {
          pdf = document;
          if (controller.signal.aborted) void document.destroy();
          else setLoaded({ status: "ready", pdf: document });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setLoaded({ status: "failed", message: error instanceof PreviewRefused ? error.message : "This PDF could not be shown." });
        },
      );
    return () => {
      controller.abort();
      void pdf?.destroy();
    };
  }, [url]);

  if (loaded.status === "loading") return <Spinner label={`Loading ${name}…`} className="m-auto" />;
  if (loaded.status === "failed") return <PreviewMessage>{loaded.message}</PreviewMessage>;

  const pageCount = loaded.pdf.numPages;
  return (
    <div className="flex h-full min-h-0 w-full flex-col gap-2">
      <PdfPage pdf={loaded.pdf} pageNumber={pageNumber} label={`Page ${pageNumber} of ${pageCount} of ${name}`} />
      <div className="flex items-center justify-center gap-3 text-sm">
        <Button variant="outline" size="sm" disabled={pageNumber <= 1} onClick={() => setPageNumber((n) => n - 1)}>
          <ChevronLeft aria-hidden="true" />
          Previous page
        </Button>
        <p aria-live="polite" className="tabular-nums">
          Page {pageNumber} of {pageCount}
        </p>
        <Button variant="outline" size="sm" disabled={pageNumber >= pageCount} onClick={() => setPageNumber((n) => n + 1)}>
          Next page
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}

/** One page, as wide as its box allows (and no wider than twice its natural size), sharp on dense screens. */
function PdfPage({ pdf, pageNumber, label }: { pdf: PDFDocumentProxy; pageNumber: number; label: string }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || width === 0) return;
    let cancelled = false;
    let task: ReturnType<Awaited<ReturnType<PDFDocumentProxy["getPage"]>>["render"]> | undefined;
    void pdf.getPage(pageNumber).then((page) => {
      if (cancelled) return;
      const natural = page.getViewport({ scale: 1 });
      const scale = Math.min(width / natural.width, 2);
      const viewport = page.getViewport({ scale: scale * window.devicePixelRatio });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${Math.floor(natural.width * scale)}px`;
      canvas.style.height = `${Math.floor(natural.height * scale)}px`;
      task = page.render({ canvas, viewport });
      task.promise.then(
        () => setFailed(false),
        (error: unknown) => {
          // A newer render (another page, a new width) cancels this one; that is no failure.
          if (!(error instanceof Error && error.name === "RenderingCancelledException")) setFailed(true);
        },
      );
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [pdf, pageNumber, width]);

  return (
    // A stable gutter: a scrollbar that comes and goes would change the width, and so the page's size, in a loop.
    // Focusable, so a page taller (or, zoomed, wider) than the box scrolls by the keyboard too.
    <div ref={boxRef} role="region" tabIndex={0} aria-label="Page view" className="min-h-0 w-full flex-1 overflow-auto [scrollbar-gutter:stable]">
      {failed ? (
        <PreviewMessage>This page could not be shown.</PreviewMessage>
      ) : (
        <canvas ref={canvasRef} role="img" aria-label={label} data-testid="pdf-page" className="mx-auto bg-white shadow-sm" />
      )}
    </div>
  );
}
