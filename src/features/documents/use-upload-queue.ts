import { useEffect, useState, useSyncExternalStore } from "react";
import { toast } from "sonner";
import { endPortalSession } from "@/lib/session-ended.ts";
import { trpc } from "@/lib/trpc.ts";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from "@server/domains/documents/schemas.ts";
import { sendUpload } from "./send-upload.ts";
import { batchMessage, createUploadQueue, type UploadItem, type UploadQueue, UploadFailure } from "./upload-queue.ts";

export type UploadQueueHandle = { queue: UploadQueue; items: readonly UploadItem[] };

/** Where the files go instead of the signed-in client's own documents (the firm's page of a client), and what to refresh then. */
type UploadDestination = { url: string; onStored: () => void };

/**
 * The page's upload queue (three files at a time). The dashboard holds it, so uploads go on
 * while the client looks at another tab or folder; the lists refresh as each file is stored, and
 * a toast sums up each batch. Leaving the page cancels what is left.
 */
export function useUploadQueue(destination?: UploadDestination): UploadQueueHandle {
  const utils = trpc.useUtils();
  const [queue] = useState(() =>
    createUploadQueue({
      send: (file, folderId, onProgress, signal) => sendUpload(file, folderId, onProgress, signal, destination?.url),
      maxBytes: MAX_UPLOAD_BYTES,
      tooLargeMessage: FILE_TOO_LARGE,
      fallbackError: "File upload failed",
      onUploaded: () => (destination ? destination.onStored() : void utils.documents.invalidate()),
      onFailed: (_item, reason) => {
        // Not through tRPC, so the portal-wide handling of an ended session is called here.
        if (reason instanceof UploadFailure && reason.status === 401) endPortalSession();
        // A refusal for the quota may come from uploads made elsewhere: show the usage it counted.
        if (reason instanceof UploadFailure && reason.status === 413) {
          if (destination) destination.onStored();
          else void utils.documents.usage.invalidate();
        }
      },
      onBatchEnd: (summary) => {
        const message = batchMessage(summary);
        if (!message) return;
        if (message.ok) toast.success(message.text, { id: "upload" });
        else toast.error(message.text, { id: "upload", description: message.description });
      },
    }),
  );
  const items = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  useEffect(() => () => queue.cancelAll(), [queue]);
  return { queue, items };
}
