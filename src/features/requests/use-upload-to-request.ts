import { useState } from "react";
import { toast } from "sonner";
import { endPortalSession } from "@/lib/session-ended.ts";
import { trpc } from "@/lib/trpc.ts";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from "@server/domains/documents/schemas.ts";

/** itemId: the checklist item the files are for (null: the request itself). */
type Progress = { requestId: string; itemId: string | null; done: number; total: number };

class UploadRefused extends Error {}
class SessionEnded extends UploadRefused {}
/**
 * Uploads files against one request, one after the other, through the ordinary upload path with
 * the `request_id` field: the server attaches each document to the request and puts it in the
 * request's folder. With an item of its checklist, `request_item_id` attaches each to the item too.
 * One toast sums up the files; the request, the documents and the trail refresh.
 */
export function useUploadToRequest() {
  const utils = trpc.useUtils();
  const [progress, setProgress] = useState<Progress | null>(null);

  async function upload(request: { id: string; title: string }, files: readonly File[], item: { id: string; title: string } | null = null) {
    if (files.length === 0 || progress) return;
    let uploaded = 0;
    let lastError: string | null = null;
    const itemId = item?.id ?? null;
    const title = item?.title ?? request.title;
    setProgress({ requestId: request.id, itemId, done: 0, total: files.length });
    for (const file of files) {
      try {
        if (file.size > MAX_UPLOAD_BYTES) throw new UploadRefused(FILE_TOO_LARGE);
        await send(request.id, itemId, file);
        uploaded += 1;
      } catch (err) {
        lastError = err instanceof UploadRefused ? err.message : "File upload failed";
        if (err instanceof SessionEnded) break;
      }
      setProgress({ requestId: request.id, itemId, done: uploaded, total: files.length });
    }
    setProgress(null);
    await Promise.all([utils.requests.list.invalidate(), utils.documents.invalidate(), utils.activity.list.invalidate()]);
    const failed = files.length - uploaded;
    if (failed === 0) toast.success(files.length === 1 ? `File uploaded for “${title}”` : `${uploaded} files uploaded for “${title}”`);
    else toast.error(uploaded === 0 ? "File upload failed" : `${uploaded} uploaded, ${failed} failed`, { description: lastError ?? undefined });
  }

  return { upload, progress };
}

async function send(requestId: string, itemId: string | null, file: File): Promise<void> {
  const form = new FormData();
  form.append("request_id", requestId);
  if (itemId) form.append("request_item_id", itemId);
  form.append("file", file, file.name);
  // Same origin: the session cookie goes along and Sec-Fetch-Site satisfies the CSRF check.
  const res = await fetch("/api/documents/upload", { method: "POST", body: form, credentials: "same-origin" });
  if (res.ok) return;
  const body: unknown = await res.json().catch(() => null);
  const detail =
    typeof body === "object" && body !== null && "detail" in body && typeof body.detail === "string" ? body.detail : "File upload failed";
  if (res.status === 401) {
    endPortalSession();
    throw new SessionEnded(detail);
  }
  throw new UploadRefused(detail);
}
