import { UploadFailure } from "./upload-queue.ts";

const OWN_UPLOAD_URL = "/api/documents/upload";

/**
 * Uploads one file with XMLHttpRequest (fetch cannot report upload progress) to a REST upload
 * path (the client's own, or the firm's into a client's documents), into `folderId` or the root.
 * Same origin, so the session cookie goes along and the browser's Sec-Fetch-Site satisfies the
 * CSRF check. Aborting `signal` stops the transfer.
 */
export function sendUpload(
  file: File,
  folderId: string | null,
  onProgress: (percent: number) => void,
  signal: AbortSignal,
  url: string = OWN_UPLOAD_URL,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    if (folderId) form.append("folder_id", folderId);
    form.append("file", file, file.name);

    const request = new XMLHttpRequest();
    request.open("POST", url);
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
      reject(new UploadFailure(detail, request.status));
    };
    request.onerror = () => reject(new UploadFailure(undefined));
    request.onabort = () => reject(new UploadFailure(undefined));
    signal.addEventListener("abort", () => request.abort(), { once: true });
    request.send(form);
  });
}
