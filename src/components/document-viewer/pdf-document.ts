/*
 * What the two pdf.js renderers share: opening a PDF from a preview address, tracking the width of
 * a page's box, and drawing one page onto a canvas at that width. Imported only by pdf-pages.tsx and
 * pdf-page-stack.tsx, which are loaded on demand, so pdf.js and its worker stay out of every page's
 * first load. The worker is a file of our own origin, which the CSP's default-src 'self' allows.
 */
import { type RefObject, useEffect, useState } from "react";
import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";
import { fetchPreview, PreviewRefused } from "./preview-fetch.tsx";

GlobalWorkerOptions.workerSrc = workerUrl;

export type LoadedPdf = { status: "loading" } | { status: "failed"; message: string } | { status: "ready"; pdf: PDFDocumentProxy };

/** The PDF at `url`, opened once per address and closed when it changes or the caller unmounts. */
export function usePdfDocument(url: string): LoadedPdf {
  const [loaded, setLoaded] = useState<LoadedPdf>({ status: "loading" });

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

  return loaded;
}

/** The width in whole pixels of the element behind `boxRef`, kept current as it resizes (0 until measured). */
export function useBoxWidth(boxRef: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    observer.observe(box);
    return () => observer.disconnect();
  }, [boxRef]);
  return width;
}

/**
 * How a page meets its box's width:
 * - "fill": the canvas's CSS stretches it over its box, so the bitmap is drawn at the box's width
 *   (times the screen's density, at most 2);
 * - "natural": the canvas gets its own CSS size, as wide as the box but no wider than twice the
 *   page's natural size, drawn at the screen's full density.
 */
export type PageFit = "fill" | "natural";

/**
 * Draws page `pageNumber` (from 1) onto the canvas behind `canvasRef` at `width`, again whenever any
 * of them changes; once drawn, the canvas carries data-rendered="true". Returns whether the drawing failed.
 */
export function usePageCanvas(
  pdf: PDFDocumentProxy,
  pageNumber: number,
  width: number,
  canvasRef: RefObject<HTMLCanvasElement | null>,
  fit: PageFit,
): boolean {
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || width === 0) return;
    let cancelled = false;
    let task: ReturnType<Awaited<ReturnType<PDFDocumentProxy["getPage"]>>["render"]> | undefined;
    void pdf.getPage(pageNumber).then((page) => {
      if (cancelled) return;
      const natural = page.getViewport({ scale: 1 });
      let viewport;
      if (fit === "fill") {
        viewport = page.getViewport({ scale: (width / natural.width) * Math.min(window.devicePixelRatio, 2) });
      } else {
        const scale = Math.min(width / natural.width, 2);
        viewport = page.getViewport({ scale: scale * window.devicePixelRatio });
        canvas.style.width = `${Math.floor(natural.width * scale)}px`;
        canvas.style.height = `${Math.floor(natural.height * scale)}px`;
      }
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      task = page.render({ canvas, viewport });
      task.promise.then(
        () => {
          setFailed(false);
          canvas.dataset.rendered = "true";
        },
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
  }, [pdf, pageNumber, width, canvasRef, fit]);

  return failed;
}
