import { useCallback, useState } from "react";
import { toast } from "sonner";
import { endPortalSession } from "@/lib/session-ended.ts";
import { trpc } from "@/lib/trpc.ts";

export type UploadProgress = {
  fileName: string;
  /** 0-100, or null until the browser reports how much has been sent. */
  percent: number | null;
};

class UploadError extends Error {
  constructor(
    readonly detail: string | undefined,
    readonly status?: number,
  ) {
    super(detail ?? "Upload failed");
  }
}

/**
 * Uploads one file with XMLHttpRequest (fetch cannot report upload progress) to the REST
 * upload path, into `folderId` or the root. Same origin, so the session cookie goes along.
 */
function sendUpload(file: File, folderId: string | null, onProgress: (percent: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    if (folderId) form.append("folder_id", folderId);
    form.append("file", file, file.name);

    const request = new XMLHttpRequest();
    request.open("POST", "/api/documents/upload");
    request.withCredentials = true;
    request.responseType = "json";
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        resolve();
        return;
      }
      const body: unknown = request.response;
      const detail = typeof body === "object" && body !== null && "detail" in body && typeof body.detail === "string" ? body.detail : undefined;
      reject(new UploadError(detail, request.status));
    };
    request.onerror = () => reject(new UploadError(undefined));
    request.onabort = () => reject(new UploadError(undefined));
    request.send(form);
  });
}

/** One upload at a time, with its progress; the document lists and the storage usage refresh when it is stored. */
export function useUploadDocument() {
  const utils = trpc.useUtils();
  const [progress, setProgress] = useState<UploadProgress | null>(null);

  const upload = useCallback(
    async (file: File, folderId: string | null) => {
      setProgress({ fileName: file.name, percent: null });
      try {
        await sendUpload(file, folderId, (percent) => setProgress({ fileName: file.name, percent }));
        toast.success("File uploaded successfully", { id: "upload" });
        await utils.documents.invalidate();
      } catch (err) {
        // Not through tRPC, so the portal-wide handling of an ended session is called here.
        if (err instanceof UploadError && err.status === 401) endPortalSession();
        const detail = err instanceof UploadError ? err.detail : undefined;
        toast.error("File upload failed", { id: "upload", description: detail });
        // A refusal for the quota may come from uploads made elsewhere: show the usage it counted.
        await utils.documents.usage.invalidate();
      } finally {
        setProgress(null);
      }
    },
    [utils],
  );

  return { upload, progress, isUploading: progress !== null };
}
