import { endPortalSession } from "@/lib/session-ended.ts";
import type { MediaSlot, SiteMediaItem } from "@server/domains/site-media/schemas.ts";

/** The stored file as JSON carries it (the date as text). */
type UploadedMedia = Omit<SiteMediaItem, "uploaded_at"> & { uploaded_at: string };

/**
 * Sends one file to the slot's upload path (server/rest/site-media.ts). Same origin: the session
 * cookie goes along and Sec-Fetch-Site satisfies the CSRF check. A refusal throws with the server's detail.
 */
export async function uploadSiteMedia(slot: MediaSlot, file: File): Promise<UploadedMedia> {
  const form = new FormData();
  form.append("file", file, file.name);
  const res = await fetch(`/api/admin/site-media/${slot}`, { method: "POST", body: form, credentials: "same-origin" });
  const body: unknown = await res.json().catch(() => null);
  if (res.ok) return body as UploadedMedia;
  if (res.status === 401) endPortalSession();
  const detail = typeof body === "object" && body !== null && "detail" in body && typeof body.detail === "string" ? body.detail : undefined;
  throw new Error(detail ?? "The upload failed");
}
