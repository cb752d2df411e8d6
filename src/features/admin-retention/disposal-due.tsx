import { CalendarClock, Lock } from "lucide-react";
import { Link } from "react-router";
import { toast } from "sonner";
import { SettingsSection } from "@/components/settings-section.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatDate, formatDateTime } from "@/lib/format.ts";
import { formatStorageSize } from "@/lib/storage-size.ts";
import { useMediaQuery } from "@/lib/use-media-query.ts";
import type { DueList } from "@server/domains/retention/schemas.ts";
import { LegalHoldDialog } from "./legal-hold-dialog.tsx";
import { useClearLegalHold, useRetentionDue } from "./use-retention.ts";

type DueItem = DueList["items"][number];

const RULE_LABELS: Record<DueItem["rule"], string> = {
  inactivity: "Inactive account",
  trash: "30 days in the trash",
};

/** The day a line goes: the daily job takes it at its first run from then (today for what is already past). */
function dueText(item: DueItem): string {
  return item.due_at.getTime() <= Date.now() ? "Next run" : formatDate(item.due_at);
}

const documentsText = (n: number) => `${n} ${n === 1 ? "document" : "documents"}`;

/** The wide table's header cells, in order; the last one's label is for screen readers only. */
const COLUMNS: { label: string; className: string; hidden?: boolean }[] = [
  { label: "Account", className: "py-2 pr-3 font-medium" },
  { label: "Documents", className: "py-2 pr-3 text-right font-medium" },
  { label: "Size", className: "py-2 pr-3 text-right font-medium" },
  { label: "Rule", className: "py-2 pr-3 font-medium" },
  { label: "Last activity", className: "py-2 pr-3 font-medium" },
  { label: "Deleted on", className: "py-2 pr-3 font-medium" },
  { label: "Hold", className: "py-2 text-right font-medium", hidden: true },
];

/**
 * What the daily disposal deletes within the next 30 days, one line per account and rule, with a
 * Hold button on each; held accounts are marked (and skipped), and their holds listed below with
 * who placed them and why.
 */
export function DisposalDue() {
  const due = useRetentionDue();
  const isPhone = !useMediaQuery("(min-width: 640px)");
  return (
    <SettingsSection
      headingId="disposal-due-heading"
      icon={CalendarClock}
      title="Due for disposal"
      description={<>What the portal deletes in the next {due.data?.window_days ?? 30} days. Place a hold on an account to keep all of it.</>}
    >
      {due.isPending ? (
        <Spinner label="Loading what is due…" />
      ) : !due.data ? (
        <LoadError message="Failed to load what is due for disposal" onRetry={() => void due.refetch()} isRetrying={due.isFetching} />
      ) : (
        <>
          {due.data.items.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nothing is due for disposal in the next {due.data.window_days} days.</p>
          ) : isPhone ? (
            <ul aria-label="Due for disposal" className="grid gap-3">
              {due.data.items.map((item) => (
                <li key={`${item.account_id}-${item.rule}`} className="grid gap-2 rounded-lg border p-4">
                  <div className="flex items-start justify-between gap-3">
                    <span className="font-medium break-words">{item.account_name}</span>
                    <span className="text-sm whitespace-nowrap tabular-nums">{dueText(item)}</span>
                  </div>
                  <span className="text-sm text-muted-foreground">
                    {documentsText(item.documents)} · {formatStorageSize(item.bytes)} · {RULE_LABELS[item.rule]}
                  </span>
                  <div>{item.held ? <HeldBadge /> : <LegalHoldDialog account={{ id: item.account_id, name: item.account_name }} />}</div>
                </li>
              ))}
            </ul>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-sm">
                <caption className="sr-only">Due for disposal in the next {due.data.window_days} days</caption>
                <thead>
                  <tr className="border-b text-left text-muted-foreground">
                    {COLUMNS.map((column) => (
                      <th key={column.label} scope="col" className={column.className}>
                        {column.hidden ? <span className="sr-only">{column.label}</span> : column.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {due.data.items.map((item) => (
                    <tr key={`${item.account_id}-${item.rule}`} className="border-b last:border-0">
                      <td className="py-2 pr-3 font-medium">{item.account_name}</td>
                      <td className="py-2 pr-3 text-right tabular-nums">{item.documents}</td>
                      <td className="py-2 pr-3 text-right whitespace-nowrap tabular-nums">{formatStorageSize(item.bytes)}</td>
                      <td className="py-2 pr-3">{RULE_LABELS[item.rule]}</td>
                      <td className="py-2 pr-3 whitespace-nowrap tabular-nums">{formatDate(item.last_activity_at)}</td>
                      <td className="py-2 pr-3 whitespace-nowrap tabular-nums">{dueText(item)}</td>
                      <td className="py-2 text-right">
                        {item.held ? <HeldBadge /> : <LegalHoldDialog account={{ id: item.account_id, name: item.account_name }} />}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <LegalHolds holds={due.data.holds} />
          <KeptForSignedRecords kept={due.data.kept} />
        </>
      )}
    </SettingsSection>
  );
}

function HeldBadge() {
  return (
    <Badge variant="muted">
      <Lock aria-hidden="true" />
      On hold
    </Badge>
  );
}

/** The holds in place, each with who placed it, when and why, and a way to lift it (after a confirmation). */
function LegalHolds({ holds }: { holds: DueList["holds"] }) {
  const clear = useClearLegalHold();
  return (
    <div className="grid gap-3 border-t pt-4">
      <h3 className="font-medium">Legal holds</h3>
      {holds.length === 0 ? (
        <p className="text-sm text-muted-foreground">No account is on hold.</p>
      ) : (
        <ul aria-label="Legal holds" className="grid gap-3">
          {holds.map((hold) => (
            <li key={hold.account_id} className="flex flex-wrap items-start justify-between gap-3 rounded-lg border p-4">
              <div className="grid min-w-0 gap-1">
                <span className="font-medium break-words">{hold.account_name}</span>
                <span className="text-sm break-words">{hold.reason}</span>
                <span className="text-xs text-muted-foreground">
                  Placed {formatDateTime(hold.placed_at)}
                  {hold.placed_by_name ? ` by ${hold.placed_by_name}` : ""}
                </span>
              </div>
              <ConfirmAction
                trigger={
                  <Button variant="outline" size="sm" disabled={clear.isPending}>
                    Lift hold<span className="sr-only"> on {hold.account_name}</span>
                  </Button>
                }
                title={`Lift the hold on ${hold.account_name}?`}
                question="Its documents past the retention rules are deleted at the portal's next daily run, and its trash as usual. The trail records that you lifted it."
                confirmLabel="Lift hold"
                onConfirm={() =>
                  clear.mutate(
                    { id: hold.account_id },
                    {
                      onSuccess: () => toast.success(`The hold on ${hold.account_name} is lifted.`),
                      onError: (err) => toast.error(errorDetail(err) ?? "The hold could not be lifted."),
                    },
                  )
                }
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Accounts whose last person was deleted while they kept signed records (a sealed Form 8879 within
 * its years): they stand without people until the day shown (docs/security.md, "Round 4").
 */
function KeptForSignedRecords({ kept }: { kept: DueList["kept"] }) {
  if (kept.length === 0) return null;
  return (
    <div className="grid gap-3 border-t pt-4">
      <h3 className="font-medium">Kept for signed records</h3>
      <p className="text-sm text-muted-foreground">
        Nobody is left in these accounts, but they hold signed records the portal keeps until the day shown. Their data then goes by the rules above.
      </p>
      <ul aria-label="Kept for signed records" className="grid gap-3">
        {kept.map((account) => (
          <li key={account.account_id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-4">
            <Link to={`/admin/accounts/${account.account_id}`} className="min-w-0 font-medium break-words hover:underline">
              {account.account_name}
            </Link>
            <span className="text-sm text-muted-foreground">
              Kept until <time dateTime={new Date(account.retained_until).toISOString()}>{formatDate(account.retained_until)}</time>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
