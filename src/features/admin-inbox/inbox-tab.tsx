import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import {
  CalendarCheck,
  CalendarClock,
  CalendarX,
  CheckCheck,
  ClipboardCheck,
  ClipboardList,
  Eye,
  FileCheck,
  FileUp,
  FileX,
  type LucideIcon,
  MessageSquareReply,
  MessageSquareText,
  MessagesSquare,
  PenLine,
  Repeat,
  UserPlus,
} from "lucide-react";
import { toast } from "sonner";
import type { InboxItemView } from "@server/domains/inbox/schemas.ts";
import { Button } from "@/components/ui/button.tsx";
import { Label } from "@/components/ui/label.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { NextPageButton } from "@/components/ui/next-page-button.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { cn } from "@/lib/cn.ts";
import { formatDateTime } from "@/lib/format.ts";
import { formatRelativeTime } from "@/lib/relative-time.ts";
import { describeInboxItem, inboxItemTarget } from "./describe-inbox-item.ts";
import { useInbox, useInboxUnread, useInviteFromConsultation, useMarkInboxRead, useReplyFromInbox } from "./use-inbox.ts";

const KIND_ICONS: Record<InboxItemView["kind"], LucideIcon> = {
  upload: FileUp,
  message: MessagesSquare,
  request_submitted: ClipboardCheck,
  organizer_submitted: ClipboardList,
  consultation: MessageSquareText,
  appointment_request: CalendarClock,
  appointment_booked: CalendarCheck,
  appointment_rescheduled: Repeat,
  appointment_cancelled: CalendarX,
  signature_viewed: Eye,
  signature_signed: PenLine,
  signature_declined: FileX,
  signature_completed: FileCheck,
};

/** An item's own action (Reply, Invite as client): beside it on a wide screen, under its text on a phone. */
const ACTIONS = "flex shrink-0 items-center pr-3 max-sm:-mt-1 max-sm:pb-3 max-sm:pl-15";

/**
 * Where the firm left the Inbox when it opened an item: the item and the scroll position, so Back
 * returns to the same place (the list itself comes back from the query cache). Per browser tab.
 */
const PLACE_KEY = "admin-inbox-place";
type Place = { id: string; scrollY: number };

function takePlace(): Place | null {
  const saved = sessionStorage.getItem(PLACE_KEY);
  if (!saved) return null;
  sessionStorage.removeItem(PLACE_KEY);
  try {
    return JSON.parse(saved) as Place;
  } catch {
    return null;
  }
}

/** What arrived for the firm, newest first; opening an item marks it read and lands on the thing it is about. */
export function InboxTab() {
  const [searchParams, setSearchParams] = useSearchParams();
  const show = searchParams.get("show") === "unread" ? "unread" : "all";
  const inbox = useInbox(show);
  const unread = useInboxUnread();
  const markRead = useMarkInboxRead();
  const navigate = useNavigate();
  const items = inbox.data?.pages.flatMap((page) => page.items) ?? [];
  const list = useRef<HTMLUListElement>(null);
  const restored = useRef(false);

  // Back from an item: the list is there again (from the cache), so the place and focus come back with it.
  const haveItems = items.length > 0;
  useEffect(() => {
    if (restored.current || !haveItems) return;
    restored.current = true;
    const place = takePlace();
    if (!place) return;
    window.scrollTo({ top: place.scrollY });
    list.current?.querySelector<HTMLElement>(`[data-inbox-item="${CSS.escape(place.id)}"]`)?.focus({ preventScroll: true });
  }, [haveItems]);

  const setShow = (value: "all" | "unread") =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === "unread") next.set("show", "unread");
        else next.delete("show");
        return next;
      },
      { replace: true },
    );

  const open = (item: InboxItemView) => {
    if (!item.read) markRead.mutate({ ids: [item.id] });
    sessionStorage.setItem(PLACE_KEY, JSON.stringify({ id: item.id, scrollY: window.scrollY } satisfies Place));
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
            {unread === 0 ? "You are all caught up." : `${unread} unread`} · Messages, uploads, submitted requests, bookings and consultation
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
        <ul ref={list} aria-label="Inbox items" className="divide-y overflow-hidden rounded-xl border bg-card">
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
  const { headline, account, detail } = describeInboxItem(item);
  const Icon = KIND_ICONS[item.kind];
  const [replying, setReplying] = useState(false);
  return (
    <li className={cn(!item.read && "bg-accent-soft/40")}>
      {/* On a phone the item's action goes under its text, which keeps the width. */}
      <div className="flex items-stretch max-sm:flex-col">
        <button
          type="button"
          data-inbox-item={item.id}
          onClick={onOpen}
          className="flex min-w-0 flex-1 cursor-pointer items-start gap-3 px-4 py-3 text-left transition-colors hover:bg-muted/50 focus-visible:bg-muted/50 max-sm:min-h-11"
        >
          <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground">
            <Icon aria-hidden="true" className="size-4" />
          </span>
          <span className="grid min-w-0 flex-1 gap-0.5">
            <span className={cn("break-words", item.read ? "text-foreground" : "font-semibold")}>
              {!item.read && <span className="sr-only">Unread: </span>}
              {headline}
            </span>
            {account && <span className="truncate text-sm text-muted-foreground">{account}</span>}
            {detail && <span className="line-clamp-2 text-sm break-words text-muted-foreground">{detail}</span>}
            {item.read && item.read_by_name && <span className="truncate text-xs text-muted-foreground">Read by {item.read_by_name}</span>}
          </span>
          <span className="flex shrink-0 items-center gap-2 text-xs text-muted-foreground">
            <time dateTime={item.last_at.toISOString()} title={formatDateTime(item.last_at)} className="whitespace-nowrap">
              {formatRelativeTime(item.last_at)}
            </time>
            {!item.read && <span aria-hidden="true" className="size-2 rounded-full bg-accent" />}
          </span>
        </button>
        {item.kind === "message" && item.client_id && (
          <div className={ACTIONS}>
            <Button variant="outline" size="sm" aria-expanded={replying} onClick={() => setReplying((open) => !open)}>
              <MessageSquareReply aria-hidden="true" />
              Reply
            </Button>
          </div>
        )}
        {item.kind === "consultation" && <InviteButton item={item} />}
      </div>
      {replying && item.client_id && (
        <ReplyForm accountId={item.client_id} to={item.actor_name ?? item.client_label ?? "the client"} onDone={() => setReplying(false)} />
      )}
    </li>
  );
}

/** A reply written where the message arrived, sent to the account's conversation. */
function ReplyForm({ accountId, to, onDone }: { accountId: string; to: string; onDone: () => void }) {
  const [text, setText] = useState("");
  const reply = useReplyFromInbox();
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    reply.mutate(
      { account_id: accountId, text },
      {
        onSuccess: () => {
          toast.success(`Reply sent to ${to}`);
          onDone();
        },
        onError: (err) => toast.error(errorDetail(err) ?? "Failed to send the message. Please try again."),
      },
    );
  };
  return (
    <form onSubmit={submit} className="grid gap-2 border-t bg-card px-4 py-3 sm:pl-15">
      <Label htmlFor={id}>Reply to {to}</Label>
      <Textarea id={id} rows={3} value={text} autoFocus onChange={(event) => setText(event.target.value)} maxLength={10_000} />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" size="sm" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={reply.isPending || !text.trim()}>
          {reply.isPending ? "Sending…" : "Send reply"}
        </Button>
      </div>
    </form>
  );
}

/** A consultation request turned into an invited client in one step. */
function InviteButton({ item }: { item: InboxItemView }) {
  const invite = useInviteFromConsultation();
  const name = String(item.summary.name ?? "this person");
  return (
    <div className={ACTIONS}>
      <Button
        variant="outline"
        size="sm"
        disabled={invite.isPending || invite.isSuccess}
        aria-label={`${invite.isSuccess ? "Invited" : "Invite as client"}, request from ${name}`}
        onClick={() =>
          invite.mutate(
            { id: item.subject_id },
            {
              onSuccess: (invitation) => toast.success(`Invitation sent to ${invitation.email}`),
              onError: (err) => toast.error(errorDetail(err) ?? "Failed to send the invitation"),
            },
          )
        }
      >
        <UserPlus aria-hidden="true" />
        {invite.isSuccess ? "Invited" : "Invite as client"}
      </Button>
    </div>
  );
}
