import type { ReactNode } from "react";
import { FileQuestion } from "lucide-react";

/** A preview the server would not give: its `detail` is the message, e.g. for a type it does not show. */
export class PreviewRefused extends Error {
  override name = "PreviewRefused";
}

/** The preview's bytes with the session cookie; a refusal throws PreviewRefused with the server's words. */
export async function fetchPreview(url: string, signal: AbortSignal): Promise<Response> {
  const response = await fetch(url, { credentials: "include", signal });
  if (response.ok) return response;
  const body: unknown = await response.json().catch(() => null);
  const detail = typeof body === "object" && body !== null && "detail" in body && typeof body.detail === "string" ? body.detail : null;
  throw new PreviewRefused(detail ?? "This file could not be shown.");
}

/** What the viewer says instead of a preview. */
export function PreviewMessage({ children }: { children: ReactNode }) {
  return (
    <div className="m-auto grid max-w-sm justify-items-center gap-3 p-6 text-center">
      <FileQuestion aria-hidden="true" className="size-10 text-muted-foreground" strokeWidth={1.5} />
      <p className="text-sm text-muted-foreground">{children}</p>
    </div>
  );
}
