import { useEffect, useRef } from "react";
import { Paperclip } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { cn } from "@/lib/cn.ts";
import { formatDateTime, formatFileSizeKB } from "@/lib/format.ts";
import { MessageText } from "./message-text.tsx";

export type ConversationMessage = {
  id: string;
  text: string;
  sender_role: "client" | "admin";
  sender_name: string | null;
  sender_id: string | null;
  created_at: Date;
  documents: Array<{ id: string; original_filename: string; file_size: number }>;
};

type MessageListProps = {
  /** Oldest first. */
  messages: ConversationMessage[];
  /** Whose page this is: their own messages sit on the right. */
  viewer: "client" | "admin";
  /**
   * The signed-in person, on the client's side: an account's people share it, so only their own
   * messages are "You" and the others' carry their writer's name.
   */
  viewerId?: string;
  /** How the other side is named when its writer is unknown. */
  otherName: string;
  downloadHref: (documentId: string) => string;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
};

/** A conversation, newest last, kept scrolled to the newest message as messages arrive. */
export function MessageList({ messages, viewer, viewerId, otherName, downloadHref, hasOlder, loadingOlder, onLoadOlder }: MessageListProps) {
  const endRef = useRef<HTMLDivElement>(null);
  const newest = messages.at(-1)?.id;
  useEffect(() => {
    endRef.current?.scrollIntoView({ block: "nearest" });
  }, [newest]);

  return (
    <div role="log" aria-label="Messages" aria-live="polite" className="grid max-h-[60dvh] gap-3 overflow-y-auto p-3 sm:p-4">
      {hasOlder && (
        <Button variant="ghost" size="sm" className="justify-self-center" disabled={loadingOlder} onClick={onLoadOlder}>
          {loadingOlder ? "Loading…" : "Show earlier messages"}
        </Button>
      )}
      {messages.length === 0 && <p className="py-8 text-center text-sm text-muted-foreground">No messages yet.</p>}
      {messages.map((message) => {
        const own = message.sender_role === viewer && (viewerId === undefined || message.sender_id === viewerId);
        const author = own ? "You" : (message.sender_name ?? otherName);
        return (
          <article
            key={message.id}
            aria-label={`Message from ${author}`}
            className={cn(
              "grid max-w-[85%] gap-1 rounded-xl px-3 py-2 text-sm sm:max-w-[70%]",
              own ? "justify-self-end bg-primary text-primary-foreground" : "justify-self-start bg-muted",
            )}
          >
            <p className={cn("text-xs", own ? "text-primary-foreground/80" : "text-muted-foreground")}>
              <span className="font-medium">{author}</span> ·{" "}
              <time dateTime={message.created_at.toISOString()}>{formatDateTime(message.created_at)}</time>
            </p>
            {message.text && <MessageText text={message.text} />}
            {message.documents.length > 0 && (
              <ul className="grid gap-1">
                {message.documents.map((document) => (
                  <li key={document.id}>
                    <a href={downloadHref(document.id)} download className="inline-flex max-w-full items-center gap-1.5 underline underline-offset-2">
                      <Paperclip aria-hidden="true" className="size-3.5 shrink-0" />
                      <span className="truncate">{document.original_filename}</span>
                      <span className="shrink-0 opacity-75">({formatFileSizeKB(document.file_size)})</span>
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </article>
        );
      })}
      <div ref={endRef} />
    </div>
  );
}
