import { useState } from "react";
import { useNavigate } from "react-router";
import { CalendarClock, CheckCheck, ClipboardCheck, FileUp, type LucideIcon, MessageSquareText } from "lucide-react";
import { toast } from "sonner";
import type { InboxItemView } from "@server/domains/inbox/schemas.ts";
import { Button } from "@/components/ui/button.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { NextPageButton } from "@/components/ui/next-page-button.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { cn } from "@/lib/cn.ts";
import { formatDateTime } from "@/lib/format.ts";
import { formatRelativeTime } from "@/lib/relative-time.ts";
import { describeInboxItem, inboxItemTarget } from "./describe-inbox-item.ts";
import { useInbox, useInboxUnread, useMarkInboxRead } from "./use-inbox.ts";

const KIND_ICONS: Record<InboxItemView["kind"], LucideIcon> = {
  upload: FileUp,
  request_submitted: ClipboardCheck,
  consultation: MessageSquareText,
  appointment_request: CalendarClock,
};

/** What arrived for the firm, newest first; opening an item marks it read and goes where it is handled. */
export function InboxTab() {
  const [show, setShow] = useState<"all" | "unread">("all");
  const inbox = useInbox(show);
  const unread = useInboxUnread();
  const markRead = useMarkInboxRead();
  const navigate = useNavigate();
  const items = inbox.data?.pages.flatMap((page) => page.items) ?? [];

  const open = (item: InboxItemView) => {
    if (!item.read) markRead.mutate({ ids: [item.id] });
    void navigate(inboxItemTarget(item));
  };

  return (
    <section aria-labelledby="inbox-heading" className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="inbox-heading" className="text-lg font-semibold">
            Inbox
          </h2>
          <p className="text-sm text-muted-foreground">
            {unread === 0 ? "You are all caught up." : `${unread} unread`} · Client uploads, submitted requests, consultation and appointment
            requests.
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <div role="group" aria-label="Show" className="inline-flex rounded-md border bg-card p-0.5">
            {(["all", "unread"] as const).map((value) => (
              <Button
                key={value}
                variant={show === value ? "secondary" : "ghost"}
                size="sm"
                aria-pressed={show === value}
                onClick={() => setShow(value)}
              >
                {value === "all" ? "All" : "Unread"}
              </Button>
            ))}
          </div>
          <Button
            variant="outline"
            size="sm"
            disabled={unread === 0 || markRead.isPending}
            onClick={() => markRead.mutate({ all: true }, { onSuccess: () => toast.success("Inbox marked read") })}
          >
            <CheckCheck aria-hidden="true" />
            Mark all read
          </Button>
        </div>
      </div>

      {inbox.isError && items.length === 0 ? (
        <LoadError message="Failed to load the Inbox." onRetry={() => void inbox.refetch()} isRetrying={inbox.isFetching} />
      ) : inbox.isPending ? (
        <div className="rounded-xl border bg-card px-4 py-10 text-center">
          <Spinner label="Loading the Inbox…" />
        </div>
      ) : items.length === 0 ? (
        <p className="rounded-xl border bg-card px-4 py-10 text-center text-sm text-muted-foreground">
          {show === "unread" ? "Nothing unread." : "Nothing has arrived yet."}
        </p>
      ) : (
        <ul aria-label="Inbox items" className="divide-y overflow-hidden rounded-xl border bg-card">
          {items.map((item) => (
            <InboxRow key={item.id} item={item} onOpen={() => open(item)} />
          ))}
        </ul>
      )}

      <NextPageButton pages={inbox} label="Load more" className="justify-self-center" />
    </section>
  );
}

function InboxRow({ item, onOpen }: { item: InboxItemView; onOpen: () => void }) {
  const { headline, detail } = describeInboxItem(item);
  const Icon = KIND_ICONS[item.kind];
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        className={cn(
          "flex w-full cursor-pointer items-start gap-3 px-4 py-3 text-left transition-colors hover:bg-muted/50 focus-visible:bg-muted/50 max-sm:min-h-11",
          !item.read && "bg-accent-soft/40",
        )}
      >
        <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <Icon aria-hidden="true" className="size-4" />
        </span>
        <span className="grid min-w-0 flex-1 gap-0.5">
          <span className={cn("break-words", item.read ? "text-foreground" : "font-semibold")}>
            {!item.read && <span className="sr-only">Unread: </span>}
            {headline}
          </span>
          {detail && <span className="truncate text-sm text-muted-foreground">{detail}</span>}
        </span>
        <span className="flex shrink-0 items-center gap-2 text-xs text-muted-foreground">
          <time dateTime={item.last_at.toISOString()} title={formatDateTime(item.last_at)} className="whitespace-nowrap">
            {formatRelativeTime(item.last_at)}
          </time>
          {!item.read && <span aria-hidden="true" className="size-2 rounded-full bg-accent" />}
        </span>
      </button>
    </li>
  );
}
