import { endPortalSession } from "./session-ended.ts";

export type UploadedDocument = { id: string; original_filename: string };

/**
 * Uploads one file to a REST upload path (the client's own, or the firm's into a client's
 * documents), into `folderId`, and answers the stored document. Same origin: the session cookie
 * goes along and Sec-Fetch-Site satisfies the CSRF check. A refusal throws with the server's detail.
 */
export async function uploadDocument(url: string, file: File, folderId: string): Promise<UploadedDocument> {
  return uploadWithFields(url, file, { folder_id: folderId });
}

/**
 * The same with any form fields before the file (the server checks them before it stores the
 * file): `folder_id`, or `organizer_id` and `question_id` for an organizer's file question.
 */
export async function uploadWithFields(url: string, file: File, fields: Record<string, string>): Promise<UploadedDocument> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("file", file, file.name);
  const res = await fetch(url, { method: "POST", body: form, credentials: "same-origin" });
  const body: unknown = await res.json().catch(() => null);
  if (res.ok) return body as UploadedDocument;
  if (res.status === 401) endPortalSession();
  const detail = typeof body === "object" && body !== null && "detail" in body && typeof body.detail === "string" ? body.detail : undefined;
  throw new Error(detail ?? "File upload failed");
}
