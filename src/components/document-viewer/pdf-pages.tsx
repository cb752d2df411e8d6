/*
 * A PDF drawn by pdf.js, one page at a time at the width of its box. This module is loaded on
 * demand (document-viewer.tsx imports it lazily), so pdf.js and its worker stay out of every page's
 * first load. The worker is a file of our own origin, which the CSP's default-src 'self' allows.
 */
import { useRef, useState } from "react";
import { ChevronLeft, ChevronRight } from "lucide-react";
import type { PDFDocumentProxy } from "pdfjs-dist";
import { Button } from "@/components/ui/button.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { useBoxWidth, usePageCanvas, usePdfDocument } from "./pdf-document.ts";
import { PreviewMessage } from "./preview-fetch.tsx";

type PdfPagesProps = { url: string; name: string };

export function PdfPages({ url, name }: PdfPagesProps) {
  const loaded = usePdfDocument(url);
  const [pageNumber, setPageNumber] = useState(1);

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
  const width = useBoxWidth(boxRef);
  const failed = usePageCanvas(pdf, pageNumber, width, canvasRef, "natural");

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
