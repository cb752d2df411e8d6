/*
 * Every page of a PDF drawn by pdf.js, one under the other at the width of their column, each with
 * a layer on top for what belongs on the page (signature fields). The layer has exactly the page's
 * box, so a position given as a fraction of the page (x, y from the top left) is a percentage of
 * the layer. Loaded on demand by the signature pages, so pdf.js stays out of every other first load.
 */
import { type ReactNode, useEffect, useRef, useState } from "react";
import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";
import { Spinner } from "@/components/ui/spinner.tsx";
import { fetchPreview, PreviewMessage, PreviewRefused } from "./preview-fetch.tsx";

GlobalWorkerOptions.workerSrc = workerUrl;

export type PdfPageStackProps = {
  url: string;
  name: string;
  /** What lies on page `page` (from 1): positioned absolutely within the page's box. */
  renderLayer?: (page: number) => ReactNode;
  /** Told the page count once the PDF opens. */
  onPages?: (count: number) => void;
};

type Loaded = { status: "loading" } | { status: "failed"; message: string } | { status: "ready"; pdf: PDFDocumentProxy };

export function PdfPageStack({ url, name, renderLayer, onPages }: PdfPageStackProps) {
  const [loaded, setLoaded] = useState<Loaded>({ status: "loading" });

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

  const count = loaded.status === "ready" ? loaded.pdf.numPages : 0;
  useEffect(() => {
    if (count > 0) onPages?.(count);
  }, [count, onPages]);

  if (loaded.status === "loading") return <Spinner label={`Loading ${name}…`} className="justify-center py-10" />;
  if (loaded.status === "failed") return <PreviewMessage>{loaded.message}</PreviewMessage>;
  return (
    <ol aria-label={`Pages of ${name}`} className="grid min-w-0 gap-4">
      {Array.from({ length: count }, (_, i) => (
        <li key={i} className="grid gap-1">
          <span className="text-xs text-muted-foreground tabular-nums">
            Page {i + 1} of {count}
          </span>
          <StackedPage pdf={loaded.pdf} pageNumber={i + 1} label={`Page ${i + 1} of ${count} of ${name}`}>
            {renderLayer?.(i + 1)}
          </StackedPage>
        </li>
      ))}
    </ol>
  );
}

/** One page at the full width of its column, sharp on dense screens, with its layer on top. */
function StackedPage({ pdf, pageNumber, label, children }: { pdf: PDFDocumentProxy; pageNumber: number; label: string; children: ReactNode }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const [ratio, setRatio] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    void pdf.getPage(pageNumber).then((page) => {
      const natural = page.getViewport({ scale: 1 });
      if (!cancelled) setRatio(natural.width / natural.height);
    });
    return () => {
      cancelled = true;
    };
  }, [pdf, pageNumber]);

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
      const viewport = page.getViewport({ scale: (width / natural.width) * Math.min(window.devicePixelRatio, 2) });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      task = page.render({ canvas, viewport });
      task.promise.then(
        () => {
          setFailed(false);
          canvas.dataset.rendered = "true";
        },
        (error: unknown) => {
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
    <div
      ref={boxRef}
      data-page={pageNumber}
      className="relative w-full overflow-hidden rounded-sm border bg-white shadow-sm"
      style={{ aspectRatio: ratio ?? 612 / 792 }}
    >
      {failed ? (
        <PreviewMessage>This page could not be shown.</PreviewMessage>
      ) : (
        <canvas ref={canvasRef} role="img" aria-label={label} data-testid="pdf-page" className="absolute inset-0 size-full" />
      )}
      <div className="absolute inset-0">{children}</div>
    </div>
  );
}
