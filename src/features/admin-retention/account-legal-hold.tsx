import { Lock } from "lucide-react";
import { toast } from "sonner";
import { SettingsSection } from "@/components/settings-section.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatDateTime } from "@/lib/format.ts";
import { LegalHoldDialog } from "./legal-hold-dialog.tsx";
import { useClearLegalHold, useLegalHold } from "./use-retention.ts";

/** The client record's legal hold: whether the account is held (why, since when, by whom), to place or lift it. */
export function AccountLegalHold({ account }: { account: { id: string; name: string } }) {
  const hold = useLegalHold(account.id);
  const clear = useClearLegalHold();
  return (
    <SettingsSection
      headingId="account-legal-hold-heading"
      icon={Lock}
      title="Legal hold"
      description="While an account is on hold, nothing of it is deleted under the retention rules, not even from its trash. The client is not told."
      className="grid gap-3 rounded-xl border bg-card p-4 sm:p-6"
      iconClassName="mt-1 size-5 shrink-0 text-muted-foreground"
    >
      {hold.isPending ? (
        <Spinner label="Loading the legal hold…" />
      ) : !hold.data ? (
        <LoadError message="Failed to load the legal hold" onRetry={() => void hold.refetch()} isRetrying={hold.isFetching} />
      ) : hold.data.hold ? (
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="grid min-w-0 gap-1">
            <span className="text-sm font-medium break-words">On hold: {hold.data.hold.reason}</span>
            <span className="text-xs text-muted-foreground">
              Placed {formatDateTime(hold.data.hold.placed_at)}
              {hold.data.hold.placed_by_name ? ` by ${hold.data.hold.placed_by_name}` : ""}
            </span>
          </div>
          <ConfirmAction
            trigger={
              <Button variant="outline" size="sm" disabled={clear.isPending}>
                Lift hold
              </Button>
            }
            title={`Lift the hold on ${account.name}?`}
            question="Its documents past the retention rules are deleted at the portal's next daily run, and its trash as usual. The trail records that you lifted it."
            confirmLabel="Lift hold"
            onConfirm={() =>
              clear.mutate(
                { id: account.id },
                {
                  onSuccess: () => toast.success(`The hold on ${account.name} is lifted.`),
                  onError: (err) => toast.error(errorDetail(err) ?? "The hold could not be lifted."),
                },
              )
            }
          />
        </div>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <span className="text-sm">Not on hold.</span>
          <LegalHoldDialog account={account} triggerLabel="Place legal hold" />
        </div>
      )}
    </SettingsSection>
  );
}
