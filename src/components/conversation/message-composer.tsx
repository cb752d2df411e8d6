import { type ReactNode, useId, useRef, useState } from "react";
import { Paperclip, Send, X } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import type { UploadedDocument } from "@/lib/upload-document.ts";

export const MAX_MESSAGE_LENGTH = 10_000;

type MessageComposerProps = {
  /** Resolves once sent; a refusal rejects (and the text stays for another try). */
  onSend: (message: { text: string; document_ids: string[] }) => Promise<unknown>;
  /**
   * Stores a new file (in the client's Messages folder) to attach; none where a message carries no
   * documents (a private conversation: docs/decisions.md, "Private conversations").
   */
  upload?: (file: File) => Promise<UploadedDocument>;
  /** A way to pick one of the documents already stored, given the function that attaches it. */
  attachExisting?: (attach: (document: UploadedDocument) => void) => ReactNode;
  sending: boolean;
};

/** The text box and attachments of a new message; Ctrl+Enter (⌘+Enter) sends. */
export function MessageComposer({ onSend, upload, attachExisting, sending }: MessageComposerProps) {
  const [text, setText] = useState("");
  const [attached, setAttached] = useState<UploadedDocument[]>([]);
  const [uploading, setUploading] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const textId = useId();
  const tooLong = text.length > MAX_MESSAGE_LENGTH;
  const empty = text.trim() === "" && attached.length === 0;

  const attach = (document: UploadedDocument) =>
    setAttached((current) => (current.some((d) => d.id === document.id) ? current : [...current, document]));

  const addFiles = async (files: FileList | null) => {
    if (!upload) return;
    for (const file of Array.from(files ?? [])) {
      setUploading((n) => n + 1);
      try {
        attach(await upload(file));
      } catch (err) {
        toast.error(`${file.name} was not attached`, { description: err instanceof Error ? err.message : undefined });
      } finally {
        setUploading((n) => n - 1);
      }
    }
  };

  const send = async () => {
    if (empty || tooLong || sending || uploading > 0) return;
    try {
      await onSend({ text, document_ids: attached.map((d) => d.id) });
      setText("");
      setAttached([]);
    } catch {
      // The feature's mutation says why; the message stays for another try.
    }
  };

  return (
    <form
      className="grid gap-2 border-t p-3 sm:p-4"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <label htmlFor={textId} className="sr-only">
        Message
      </label>
      <Textarea
        id={textId}
        rows={3}
        value={text}
        placeholder="Write a message…"
        aria-invalid={tooLong || undefined}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void send();
          }
        }}
      />
      {tooLong && (
        <p role="alert" className="text-sm text-destructive">
          Messages are at most {MAX_MESSAGE_LENGTH.toLocaleString("en-US")} characters ({text.length.toLocaleString("en-US")} now).
        </p>
      )}
      {attached.length > 0 && (
        <ul aria-label="Attachments" className="flex flex-wrap gap-2">
          {attached.map((document) => (
            <li key={document.id} className="inline-flex max-w-full items-center gap-1 rounded-full bg-muted py-0.5 pr-1 pl-2.5 text-sm">
              <span className="truncate">{document.original_filename}</span>
              <Button
                type="button"
                variant="ghost"
                size="icon-sm"
                aria-label={`Remove ${document.original_filename}`}
                onClick={() => setAttached((current) => current.filter((d) => d.id !== document.id))}
              >
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2">
        {upload ? (
          <div className="flex flex-wrap gap-2">
            <input
              ref={fileInput}
              type="file"
              multiple
              className="sr-only"
              tabIndex={-1}
              aria-label="Upload files to attach"
              onChange={(event) => {
                void addFiles(event.target.files);
                event.target.value = "";
              }}
            />
            <Button type="button" variant="outline" disabled={uploading > 0} onClick={() => fileInput.current?.click()}>
              <Paperclip aria-hidden="true" />
              {uploading > 0 ? "Uploading…" : "Upload files"}
            </Button>
            {attachExisting?.(attach)}
          </div>
        ) : (
          <span />
        )}
        <Button type="submit" disabled={empty || tooLong || sending || uploading > 0}>
          <Send aria-hidden="true" />
          Send
        </Button>
      </div>
    </form>
  );
}
