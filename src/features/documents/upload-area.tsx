import { type DragEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { CloudUpload, RotateCw, Upload, X } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { Progress } from "@/components/ui/progress.tsx";
import { cn } from "@/lib/cn.ts";
import { formatStorageSize } from "@/lib/storage-size.ts";
import { MAX_UPLOAD_BYTES } from "@server/domains/documents/schemas.ts";
import { droppedFiles } from "./dropped-files.ts";
import { FileIcon } from "./file-icon.tsx";
import type { UploadItem } from "./upload-queue.ts";
import type { UploadQueueHandle } from "./use-upload-queue.ts";

type UploadAreaProps = {
  /** The folder the files go into; null for the root. */
  folderId: string | null;
  folderName: string | null;
  uploads: UploadQueueHandle;
  /** The folder's contents: files dragged anywhere over them are dropped into the folder. */
  children: ReactNode;
};

/**
 * A compact dashed strip with the Upload button and the spec's texts, the queue of files being
 * uploaded below it, then the folder's contents; files (and folders of files) can be dropped
 * anywhere over the strip or the list.
 */
export function UploadArea({ folderId, folderName, uploads, children }: UploadAreaProps) {
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

  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    setDragging(true);
  };

  const onDrop = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    setDragging(false);
    void droppedFiles(event.dataTransfer).then((files) => uploads.queue.add(files, folderId));
  };

  const target =
    folderName === null ? (
      "Uploading to the top level"
    ) : (
      <>
        Uploading to folder <span className="font-medium text-foreground">&quot;{folderName}&quot;</span>
      </>
    );

  return (
    <section
      aria-label="Upload documents"
      data-testid="upload-area"
      onDragOver={onDragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      className="relative grid gap-4"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-xl border-2 border-dashed border-input/60 bg-card px-3 py-2.5 sm:gap-x-4 sm:px-4">
        <Button variant="accent" onClick={() => inputRef.current?.click()}>
          <Upload aria-hidden="true" />
          Upload Files
        </Button>
        <div className="grid min-w-0 flex-1 gap-0.5 text-xs text-muted-foreground sm:text-sm">
          <p className="truncate">{target}</p>
          <p>
            All file types supported, up to 10MB each.<span className="hidden sm:inline"> Or drag and drop files or a folder here.</span>
          </p>
        </div>
        <input
          ref={inputRef}
          type="file"
          multiple
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          data-testid="upload-input"
          onChange={(event) => {
            uploads.queue.add([...(event.target.files ?? [])], folderId);
            event.target.value = "";
          }}
        />
      </div>
      {uploads.items.length > 0 && <UploadQueueList uploads={uploads} />}
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
          Drop files to upload them
        </p>
      </div>
    </section>
  );
}

function UploadQueueList({ uploads }: { uploads: UploadQueueHandle }) {
  const { items, queue } = uploads;
  const finished = items.filter((item) => item.state === "done").length;
  const active = items.some((item) => item.state === "waiting" || item.state === "uploading");

  return (
    <div className="grid gap-2 rounded-xl border bg-card p-3">
      <div className="flex flex-wrap items-center justify-between gap-2 px-1">
        <h3 className="text-sm font-medium">
          Uploads{" "}
          <span className="font-normal text-muted-foreground tabular-nums">
            {finished} of {items.length} uploaded
          </span>
        </h3>
        {!active && (
          <Button variant="ghost" size="sm" onClick={queue.clearFinished}>
            Clear list
          </Button>
        )}
      </div>
      {/* A long queue scrolls inside its box; the box is focusable so the keyboard can scroll it too. */}
      <ul aria-label="Upload queue" tabIndex={0} className="max-h-80 divide-y overflow-y-auto rounded-md outline-offset-2">
        {items.map((item) => (
          <UploadRow key={item.id} item={item} onCancel={() => queue.cancel(item.id)} onRetry={() => queue.retry(item.id)} />
        ))}
      </ul>
    </div>
  );
}

const STATE_TEXT: Record<UploadItem["state"], string> = {
  waiting: "Waiting",
  uploading: "Uploading",
  done: "Uploaded",
  failed: "Failed",
  cancelled: "Cancelled",
};

function UploadRow({ item, onCancel, onRetry }: { item: UploadItem; onCancel: () => void; onRetry: () => void }) {
  const { file, state } = item;
  const running = state === "waiting" || state === "uploading";
  const percent = state === "done" ? 100 : item.percent;

  return (
    <li data-state={state} className="grid grid-cols-[1fr_auto] items-center gap-x-3 gap-y-1 px-1 py-2">
      <div className="flex min-w-0 items-center gap-2">
        <FileIcon name={file.name} className="size-4 shrink-0 text-muted-foreground" />
        <span className="truncate text-sm font-medium" title={file.name}>
          {file.name}
        </span>
        <span className="shrink-0 text-xs text-muted-foreground tabular-nums">{formatStorageSize(file.size)}</span>
      </div>
      <div className="row-span-2 flex items-center">
        {running && (
          <Button variant="ghost" size="icon-sm" onClick={onCancel} aria-label={`Cancel upload of ${file.name}`}>
            <X aria-hidden="true" />
          </Button>
        )}
        {state === "failed" && file.size <= MAX_UPLOAD_BYTES && (
          <Button variant="ghost" size="icon-sm" onClick={onRetry} aria-label={`Retry upload of ${file.name}`}>
            <RotateCw aria-hidden="true" />
          </Button>
        )}
      </div>
      <div className="flex min-w-0 items-center gap-3">
        <Progress
          value={state === "waiting" ? 0 : percent}
          aria-label={`Upload progress of ${file.name}`}
          className={cn("h-1.5 max-w-48 shrink-0 basis-1/3", (state === "failed" || state === "cancelled") && "opacity-40")}
        />
        <p
          data-testid="upload-state"
          className={cn("min-w-0 truncate text-xs", state === "failed" ? "text-destructive" : "text-muted-foreground")}
          title={item.error ?? undefined}
        >
          {state === "failed" && item.error ? `Failed: ${item.error}` : STATE_TEXT[state]}
          {state === "uploading" && percent !== null && <span className="tabular-nums"> {percent}%</span>}
        </p>
      </div>
    </li>
  );
}
