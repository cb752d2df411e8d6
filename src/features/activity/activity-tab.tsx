import { useState } from "react";
import { FileDown } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Select } from "@/components/ui/select.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { TruncatedText } from "@/components/ui/truncated-text.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { useMediaQuery } from "@/lib/use-media-query.ts";
import type { ActivityEventItem } from "@server/domains/activity/schemas.ts";
import { ACTION_LABELS, type ActivityAction, actionLabel, describeActivity, describeUserAgent } from "./describe-activity.ts";
import { NextPageButton } from "@/components/ui/next-page-button.tsx";
import { formatRelativeTime } from "@/lib/relative-time.ts";
import { type AdminActivityFilters, useActivityClients, useAdminActivity } from "./use-admin-activity.ts";

// The named actions are the server's (test/unit/describe-activity.test.ts holds the two lists together).
const ACTIVITY_ACTIONS = Object.keys(ACTION_LABELS) as ActivityAction[];

type FilterForm = { client_id: string; action: string; from: string; to: string };

const NO_FILTERS: FilterForm = { client_id: "", action: "", from: "", to: "" };

/** The picked days are whole local days: `to` is exclusive on the server, so it becomes the next day's start. */
function toFilters(form: FilterForm): AdminActivityFilters {
  const day = (value: string, plusDays = 0) => {
    const date = new Date(`${value}T00:00`);
    date.setDate(date.getDate() + plusDays);
    return date;
  };
  return {
    client_id: form.client_id || undefined,
    action: ACTIVITY_ACTIONS.find((action) => action === form.action),
    from: form.from ? day(form.from) : undefined,
    to: form.to ? day(form.to, 1) : undefined,
  };
}

function csvHref(filters: AdminActivityFilters): string {
  const params = new URLSearchParams();
  if (filters.client_id) params.set("client_id", filters.client_id);
  if (filters.action) params.set("action", filters.action);
  if (filters.from) params.set("from", filters.from.toISOString());
  if (filters.to) params.set("to", filters.to.toISOString());
  const query = params.toString();
  return `/api/admin/activity.csv${query ? `?${query}` : ""}`;
}

/** The firm's view of the trail: every client's events, filtered, paged by "Load more", exportable as CSV. */
export function ActivityTab() {
  const [form, setForm] = useState<FilterForm>(NO_FILTERS);
  const filters = toFilters(form);
  const activity = useAdminActivity(filters);
  const clients = useActivityClients();
  const isPhone = !useMediaQuery("(min-width: 640px)");
  const items = activity.data?.pages.flatMap((page) => page.items) ?? [];
  const set = (key: keyof FilterForm) => (event: { target: { value: string } }) => setForm((current) => ({ ...current, [key]: event.target.value }));
  const filtered = Object.values(form).some(Boolean);

  return (
    <div className="grid min-w-0 gap-4">
      <form
        aria-label="Activity filters"
        className="grid grid-cols-1 gap-3 rounded-xl border bg-card p-4 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-end"
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor="activity-client">Client</Label>
          <Select id="activity-client" value={form.client_id} onChange={set("client_id")}>
            <option value="">All clients</option>
            {clients.map((client) => (
              <option key={client.id} value={client.id}>
                {client.name} ({client.username ?? client.email})
              </option>
            ))}
          </Select>
        </div>
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor="activity-action">Action</Label>
          <Select id="activity-action" value={form.action} onChange={set("action")}>
            <option value="">All actions</option>
            {ACTIVITY_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {actionLabel(action)}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor="activity-from">From</Label>
          <Input id="activity-from" type="date" value={form.from} max={form.to || undefined} onChange={set("from")} />
        </div>
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor="activity-to">To</Label>
          <Input id="activity-to" type="date" value={form.to} min={form.from || undefined} onChange={set("to")} />
        </div>
        <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-1">
          <Button type="button" variant="ghost" size="sm" disabled={!filtered} onClick={() => setForm(NO_FILTERS)}>
            Clear
          </Button>
          <Button asChild variant="outline" size="sm">
            <a href={csvHref(filters)} download>
              <FileDown aria-hidden="true" />
              Export CSV
            </a>
          </Button>
        </div>
      </form>

      {activity.isError && items.length === 0 ? (
        <LoadError message="Failed to load activity." onRetry={() => void activity.refetch()} isRetrying={activity.isFetching} />
      ) : activity.isPending ? (
        <div className="rounded-xl border bg-card px-4 py-10 text-center">
          <Spinner label="Loading activity…" />
        </div>
      ) : items.length === 0 ? (
        <p className="rounded-xl border bg-card px-4 py-10 text-center text-sm text-muted-foreground">
          {filtered ? "No activity matches these filters." : "No activity recorded yet."}
        </p>
      ) : isPhone ? (
        <ActivityCards items={items} />
      ) : (
        <ActivityTable items={items} />
      )}

      <NextPageButton pages={activity} label="Load more" className="justify-self-center" />
    </div>
  );
}

function When({ item }: { item: ActivityEventItem }) {
  return (
    <time dateTime={item.occurred_at.toISOString()} title={formatRelativeTime(item.occurred_at)} className="whitespace-nowrap tabular-nums">
      {formatDateTime(item.occurred_at)}
    </time>
  );
}

function Who({ item }: { item: ActivityEventItem }) {
  const role = item.actor_role === "admin" ? "Firm" : item.actor_role === "system" ? "System" : "Client";
  return (
    <div className="min-w-0 sm:max-w-40">
      <TruncatedText text={item.actor_label} />
      <span className="text-xs text-muted-foreground">{role}</span>
    </div>
  );
}

function Where({ item }: { item: ActivityEventItem }) {
  if (!item.ip) return <span className="text-muted-foreground">—</span>;
  const device = describeUserAgent(item.user_agent);
  return (
    <span title={item.user_agent ?? undefined} className="tabular-nums">
      {item.ip}
      {device && <span className="block text-xs text-muted-foreground">{device}</span>}
    </span>
  );
}

export function ActivityTable({ items }: { items: ActivityEventItem[] }) {
  return (
    <div className="min-w-0 overflow-x-auto rounded-xl border bg-card">
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">Activity</caption>
        <thead className="bg-muted/60 text-left text-xs font-medium text-muted-foreground">
          <tr>
            <th scope="col" className="px-4 py-2.5 font-medium">
              Time
            </th>
            <th scope="col" className="px-4 py-2.5 font-medium">
              Who
            </th>
            <th scope="col" className="px-4 py-2.5 font-medium">
              What
            </th>
            <th scope="col" className="hidden px-4 py-2.5 font-medium md:table-cell">
              Client
            </th>
            <th scope="col" className="hidden px-4 py-2.5 font-medium lg:table-cell">
              IP
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id} className="border-t align-top">
              <td className="px-4 py-3">
                <When item={item} />
              </td>
              <td className="px-4 py-3">
                <Who item={item} />
              </td>
              <td className="min-w-48 px-4 py-3 break-words [overflow-wrap:anywhere]">{describeActivity(item, "admin")}</td>
              <td className="hidden max-w-40 px-4 py-3 md:table-cell">
                {item.client_label ? <TruncatedText text={item.client_label} /> : <span className="text-muted-foreground">—</span>}
              </td>
              <td className="hidden px-4 py-3 lg:table-cell">
                <Where item={item} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ActivityCards({ items }: { items: ActivityEventItem[] }) {
  return (
    <ul aria-label="Activity" className="grid gap-3">
      {items.map((item) => (
        <li key={item.id} className="grid min-w-0 gap-2 rounded-xl border bg-card p-4 text-sm">
          <p className="font-medium break-words [overflow-wrap:anywhere]">{describeActivity(item, "admin")}</p>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5">
            <dt className="text-xs font-medium text-muted-foreground">Time</dt>
            <dd className="min-w-0">
              <When item={item} />
            </dd>
            <dt className="text-xs font-medium text-muted-foreground">Who</dt>
            <dd className="min-w-0">
              <Who item={item} />
            </dd>
            <dt className="text-xs font-medium text-muted-foreground">Client</dt>
            <dd className="min-w-0">{item.client_label ? <TruncatedText text={item.client_label} /> : "—"}</dd>
            <dt className="text-xs font-medium text-muted-foreground">IP</dt>
            <dd className="min-w-0">
              <Where item={item} />
            </dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}
