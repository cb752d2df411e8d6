import { type DragEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { CloudUpload, Upload } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Progress } from "@/components/ui/progress.tsx";
import { cn } from "@/lib/cn.ts";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from "@server/routers/documents/schemas.ts";
import { useUploadDocument } from "./use-upload-document.ts";

type UploadAreaProps = {
  /** The folder the file goes into; null for the root. */
  folderId: string | null;
  folderName: string | null;
  /** The folder's contents: a file dragged anywhere over them is dropped into the folder. */
  children: ReactNode;
};

const UPLOAD_TOAST = "upload";

/**
 * A compact dashed strip with the Upload button, the spec's texts and the progress of the running
 * upload, above the folder's contents; a file can be dropped anywhere over the strip or the list.
 */
export function UploadArea({ folderId, folderName, children }: UploadAreaProps) {
  const { upload, progress, isUploading } = useUploadDocument();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  // A file dropped beside the zone would otherwise make the browser open it in place of the portal.
  useEffect(() => {
    const keepFileOut = (event: globalThis.DragEvent) => {
      if (event.dataTransfer?.types.includes("Files")) event.preventDefault();
    };
    window.addEventListener("dragover", keepFileOut);
    window.addEventListener("drop", keepFileOut);
    return () => {
      window.removeEventListener("dragover", keepFileOut);
      window.removeEventListener("drop", keepFileOut);
    };
  }, []);

  const start = (files: FileList | null) => {
    if (!files || files.length === 0 || isUploading) return;
    if (files.length > 1) {
      toast.error("File upload failed", { id: UPLOAD_TOAST, description: "Please upload one file at a time." });
      return;
    }
    const file = files[0]!;
    // The server refuses it too, but only after the whole file has travelled.
    if (file.size > MAX_UPLOAD_BYTES) {
      toast.error("File upload failed", { id: UPLOAD_TOAST, description: `${FILE_TOO_LARGE}: ${file.name}` });
      return;
    }
    void upload(file, folderId);
  };

  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = isUploading ? "none" : "copy";
    setDragging(true);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    start(event.dataTransfer.files);
  };

  const target =
    folderName === null ? (
      "Uploading to the root folder"
    ) : (
      <>
        Uploading to folder <span className="font-medium text-foreground">&quot;{folderName}&quot;</span>
      </>
    );

  return (
    <section
      aria-label="Upload a document"
      data-testid="upload-area"
      onDragOver={onDragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      className="relative grid gap-4"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-xl border-2 border-dashed border-input/60 bg-card px-3 py-2.5 sm:gap-x-4 sm:px-4">
        <Button variant="accent" onClick={() => inputRef.current?.click()} disabled={isUploading}>
          <Upload aria-hidden="true" />
          Upload File
        </Button>
        <div className="grid min-w-0 flex-1 gap-0.5 text-xs text-muted-foreground sm:text-sm">
          <p className="truncate">{target}</p>
          <p>
            All file types supported, up to 10MB.<span className="hidden sm:inline"> Or drag and drop a file here.</span>
          </p>
        </div>
        <input
          ref={inputRef}
          type="file"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            start(event.target.files);
            event.target.value = "";
          }}
        />
        <div aria-live="polite" className="w-full empty:hidden">
          {progress && (
            <div className="grid gap-1.5">
              <p className="truncate text-sm">
                Uploading {progress.fileName}
                {progress.percent !== null && (
                  <span aria-hidden="true" className="tabular-nums">
                    {" "}
                    {progress.percent}%
                  </span>
                )}
              </p>
              <Progress value={progress.percent} aria-label={`Upload progress of ${progress.fileName}`} />
            </div>
          )}
        </div>
      </div>
      {children}
      <div
        aria-hidden="true"
        data-testid="drop-overlay"
        className={cn(
          "pointer-events-none absolute inset-0 grid place-items-center rounded-xl border-2 border-dashed border-accent bg-accent-soft/90 opacity-0 transition-opacity duration-150",
          dragging && "opacity-100",
        )}
      >
        <p className="flex items-center gap-2 font-medium text-accent-soft-foreground">
          <CloudUpload className="size-6" strokeWidth={1.75} />
          Drop the file to upload it
        </p>
      </div>
    </section>
  );
}
