import { useEffect, useState, useSyncExternalStore } from "react";
import { toast } from "sonner";
import { endPortalSession } from "@/lib/session-ended.ts";
import { trpc } from "@/lib/trpc.ts";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from "@server/routers/documents/schemas.ts";
import { sendUpload } from "./send-upload.ts";
import { batchMessage, createUploadQueue, type UploadItem, type UploadQueue, UploadFailure } from "./upload-queue.ts";

export type UploadQueueHandle = { queue: UploadQueue; items: readonly UploadItem[] };

/**
 * The page's upload queue (three files at a time). The dashboard holds it, so uploads go on
 * while the client looks at another tab or folder; the lists refresh as each file is stored, and
 * a toast sums up each batch. Leaving the page cancels what is left.
 */
export function useUploadQueue(): UploadQueueHandle {
  const utils = trpc.useUtils();
  const [queue] = useState(() =>
    createUploadQueue({
      send: sendUpload,
      maxBytes: MAX_UPLOAD_BYTES,
      tooLargeMessage: FILE_TOO_LARGE,
      fallbackError: "File upload failed",
      onUploaded: () => void utils.documents.invalidate(),
      onFailed: (_item, reason) => {
        // Not through tRPC, so the portal-wide handling of an ended session is called here.
        if (reason instanceof UploadFailure && reason.status === 401) endPortalSession();
        // A refusal for the quota may come from uploads made elsewhere: show the usage it counted.
        if (reason instanceof UploadFailure && reason.status === 413) void utils.documents.usage.invalidate();
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
