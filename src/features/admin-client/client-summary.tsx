import { Mail } from "lucide-react";
import { Progress } from "@/components/ui/progress.tsx";
import { UnverifiedBadge } from "@/components/ui/unverified-badge.tsx";
import { formatDate } from "@/lib/format.ts";
import { formatStorageSize, usedPercent } from "@/lib/storage-size.ts";
import type { AdminUser } from "@server/domains/admin/schemas.ts";

/** Who the client is and how much of their storage they use. */
export function ClientSummary({ client }: { client: AdminUser }) {
  const storage = `${formatStorageSize(client.used_bytes)} of ${formatStorageSize(client.quota_bytes)}`;
  return (
    <div className="grid gap-4 rounded-xl border bg-card p-4 sm:grid-cols-[1fr_auto] sm:items-center sm:p-6">
      <div className="grid min-w-0 gap-1">
        <h1 className="truncate text-xl font-semibold sm:text-2xl" title={client.name}>
          {client.name}
        </h1>
        <p className="flex min-w-0 items-center gap-1.5 text-sm text-muted-foreground">
          <Mail aria-hidden="true" className="size-4 shrink-0" />
          <span className="truncate">{client.email}</span>
          <UnverifiedBadge email_verified={client.email_verified} />
        </p>
        <p className="text-sm text-muted-foreground">
          Client since <time dateTime={new Date(client.created_at).toISOString()}>{formatDate(client.created_at)}</time>
          {client.username && <span> · {client.username}</span>}
        </p>
      </div>
      <div className="grid gap-1.5 sm:w-56">
        <p className="text-sm">
          <span className="text-muted-foreground">Storage </span>
          <span className="tabular-nums">{storage}</span>
        </p>
        <Progress
          value={usedPercent(client.used_bytes, client.quota_bytes)}
          aria-label={`Storage used by ${client.name}`}
          getValueLabel={() => storage}
          className="h-1.5"
        />
      </div>
    </div>
  );
}
