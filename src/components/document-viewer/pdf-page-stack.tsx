/*
 * Every page of a PDF drawn by pdf.js, one under the other at the width of their column, each with
 * a layer on top for what belongs on the page (signature fields). The layer has exactly the page's
 * box, so a position given as a fraction of the page (x, y from the top left) is a percentage of
 * the layer. Loaded on demand by the signature pages, so pdf.js stays out of every other first load.
 */
import { type ReactNode, useEffect, useRef, useState } from "react";
import type { PDFDocumentProxy } from "pdfjs-dist";
import { Spinner } from "@/components/ui/spinner.tsx";
import { useBoxWidth, usePageCanvas, usePdfDocument } from "./pdf-document.ts";
import { PreviewMessage } from "./preview-fetch.tsx";

export type PdfPageStackProps = {
  url: string;
  name: string;
  /** What lies on page `page` (from 1): positioned absolutely within the page's box. */
  renderLayer?: (page: number) => ReactNode;
  /** Told the page count once the PDF opens. */
  onPages?: (count: number) => void;
};

export function PdfPageStack({ url, name, renderLayer, onPages }: PdfPageStackProps) {
  const loaded = usePdfDocument(url);

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
  const [ratio, setRatio] = useState<number | null>(null);
  const width = useBoxWidth(boxRef);
  const failed = usePageCanvas(pdf, pageNumber, width, canvasRef, "fill");

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
