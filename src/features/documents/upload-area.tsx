import { type DragEvent, useEffect, useRef, useState } from "react";
import { CloudUpload } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Progress } from "@/components/ui/progress.tsx";
import { cn } from "@/lib/cn.ts";
import { useUploadDocument } from "./use-upload-document.ts";

type UploadAreaProps = {
  /** The folder the file goes into; null for the root. */
  folderId: string | null;
  folderName: string | null;
};

/** The dashed drop zone with a file picker and the progress of the running upload. */
export function UploadArea({ folderId, folderName }: UploadAreaProps) {
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
      toast.error("File upload failed", { description: "Please upload one file at a time." });
      return;
    }
    void upload(files[0]!, folderId);
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

  return (
    <section
      aria-label="Upload a document"
      data-testid="upload-area"
      onDragOver={onDragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      className={cn(
        "grid justify-items-center gap-3 rounded-xl border-2 border-dashed border-input/60 bg-card px-4 py-8 text-center transition-colors duration-150",
        dragging && "border-accent bg-accent-soft",
      )}
    >
      <CloudUpload aria-hidden="true" className="size-8 text-muted-foreground" strokeWidth={1.75} />
      <div className="grid gap-1">
        <p className="font-medium">Drag and drop a file here, or choose one</p>
        <p className="text-sm text-muted-foreground">All file types supported, up to 10MB</p>
        <p className="text-sm text-muted-foreground">
          {folderName === null ? (
            "Uploading to the root folder"
          ) : (
            <>
              Uploading to folder <span className="font-medium text-foreground">&quot;{folderName}&quot;</span>
            </>
          )}
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
      <Button variant="accent" onClick={() => inputRef.current?.click()} disabled={isUploading}>
        Choose File
      </Button>
      <div aria-live="polite" className="w-full max-w-sm empty:hidden">
        {progress && (
          <div className="grid gap-1.5">
            <p className="truncate text-sm">
              Uploading {progress.fileName}
              {progress.percent !== null && <span aria-hidden="true" className="tabular-nums"> {progress.percent}%</span>}
            </p>
            <Progress value={progress.percent} aria-label={`Upload progress of ${progress.fileName}`} />
          </div>
        )}
      </div>
    </section>
  );
}
