/*
 * The document viewer shared by the client portal and the admin's documents tab: a large dialog
 * that shows an image, a PDF (pdf.js, loaded only when a PDF is opened) or a text file, says so
 * for any other type, always offers Download, and steps through the list it was opened from
 * with the arrow keys.
 */
import { lazy, Suspense, useEffect, useState } from "react";
import { ChevronLeft, ChevronRight, Download } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { PREVIEW_CONTENT_TYPES } from "@server/domains/documents/schemas.ts";
import { fetchPreview, PreviewMessage, PreviewRefused } from "./preview-fetch.tsx";

const PdfPages = lazy(async () => ({ default: (await import("./pdf-pages.tsx")).PdfPages }));

type ViewerDocument = { id: string; original_filename: string; content_type: string };

type DocumentViewerProps = {
  /** The list the viewer was opened from, in its order: the arrow keys step through it. */
  documents: readonly ViewerDocument[];
  /** The document shown; null when the viewer is closed. */
  openId: string | null;
  onOpenIdChange: (id: string | null) => void;
  previewUrl: (id: string) => string;
  downloadUrl: (id: string) => string;
};

type PreviewKind = "image" | "pdf" | "text" | "none";

/** How the viewer shows what the server previews, by the stored content type. */
function previewKind(contentType: string): PreviewKind {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (!(PREVIEW_CONTENT_TYPES as readonly string[]).includes(type)) return "none";
  if (type.startsWith("image/")) return "image";
  return type === "application/pdf" ? "pdf" : "text";
}

export function DocumentViewer({ documents, openId, onOpenIdChange, previewUrl, downloadUrl }: DocumentViewerProps) {
  const index = documents.findIndex((document) => document.id === openId);
  const current = index >= 0 ? documents[index]! : null;
  const previous = index > 0 ? documents[index - 1]! : null;
  const next = index >= 0 && index < documents.length - 1 ? documents[index + 1]! : null;

  const previousId = previous?.id ?? null;
  const nextId = next?.id ?? null;
  // On the window, not the dialog: the keys work wherever the focus is while the viewer is open.
  useEffect(() => {
    if (openId === null) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
      if (event.target instanceof Element && event.target.closest("input, textarea, select, [contenteditable=true]")) return;
      const to = event.key === "ArrowLeft" ? previousId : event.key === "ArrowRight" ? nextId : null;
      if (!to) return;
      event.preventDefault();
      onOpenIdChange(to);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [openId, previousId, nextId, onOpenIdChange]);

  return (
    <Dialog open={current !== null} onOpenChange={(open) => !open && onOpenIdChange(null)}>
      {current && (
        <DialogContent className="flex h-[calc(100dvh-2rem)] max-w-5xl flex-col gap-3 p-4 sm:p-6" data-testid="document-viewer">
          <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2 pr-8">
            <DialogTitle className="min-w-0 flex-1 truncate" title={current.original_filename}>
              {current.original_filename}
            </DialogTitle>
            <p className="text-sm text-muted-foreground tabular-nums">
              {index + 1} of {documents.length}
            </p>
          </div>
          <DialogDescription className="sr-only">
            Preview of {current.original_filename}. The left and right arrow keys open the previous and next document.
          </DialogDescription>
          <div className="flex min-h-0 flex-1 overflow-hidden rounded-lg bg-muted/50">
            <Preview key={current.id} document={current} url={previewUrl(current.id)} downloadUrl={downloadUrl(current.id)} />
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div className="flex gap-2">
              {/* aria-disabled rather than disabled: a button that turns disabled would drop the keyboard's focus. */}
              <Button
                variant="outline"
                size="sm"
                className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
                aria-disabled={!previous}
                onClick={() => previous && onOpenIdChange(previous.id)}
              >
                <ChevronLeft aria-hidden="true" />
                Previous<span className="sr-only"> document</span>
              </Button>
              <Button
                variant="outline"
                size="sm"
                className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
                aria-disabled={!next}
                onClick={() => next && onOpenIdChange(next.id)}
              >
                Next<span className="sr-only"> document</span>
                <ChevronRight aria-hidden="true" />
              </Button>
            </div>
            <Button asChild size="sm">
              <a href={downloadUrl(current.id)} download>
                <Download aria-hidden="true" />
                Download<span className="sr-only"> {current.original_filename}</span>
              </a>
            </Button>
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}

function Preview({ document, url, downloadUrl }: { document: ViewerDocument; url: string; downloadUrl: string }) {
  const name = document.original_filename;
  switch (previewKind(document.content_type)) {
    case "image":
      return <ImagePreview url={url} name={name} />;
    case "pdf":
      return (
        <Suspense fallback={<Spinner label="Loading the PDF viewer…" className="m-auto" />}>
          <PdfPages url={url} name={name} />
        </Suspense>
      );
    case "text":
      return <TextPreview url={url} name={name} />;
    default:
      return (
        <PreviewMessage>
          There is no preview for this type of file.{" "}
          <a href={downloadUrl} download className="font-medium text-accent underline-offset-4 hover:underline">
            Download it
          </a>{" "}
          to open it on your device.
        </PreviewMessage>
      );
  }
}

function ImagePreview({ url, name }: { url: string; name: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return <PreviewMessage>This image could not be shown.</PreviewMessage>;
  return (
    <div className="flex h-full w-full items-center justify-center p-2">
      <img src={url} alt={name} onError={() => setFailed(true)} className="max-h-full max-w-full object-contain" />
    </div>
  );
}

type TextState = { status: "loading" } | { status: "failed"; message: string } | { status: "ready"; text: string };

function TextPreview({ url, name }: { url: string; name: string }) {
  const [state, setState] = useState<TextState>({ status: "loading" });

  useEffect(() => {
    const controller = new AbortController();
    fetchPreview(url, controller.signal)
      .then((response) => response.text())
      .then(
        (text) => setState({ status: "ready", text }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState({ status: "failed", message: error instanceof PreviewRefused ? error.message : "This file could not be shown." });
        },
      );
    return () => controller.abort();
  }, [url]);

  if (state.status === "loading") return <Spinner label={`Loading ${name}…`} className="m-auto" />;
  if (state.status === "failed") return <PreviewMessage>{state.message}</PreviewMessage>;
  return (
    // Focusable, so the keyboard can scroll a long file.
    <div role="region" tabIndex={0} aria-label={`Text of ${name}`} className="h-full w-full overflow-auto">
      <pre className="p-4 font-mono text-sm break-words whitespace-pre-wrap">{state.text}</pre>
    </div>
  );
}
