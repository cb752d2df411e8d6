import { ShieldAlert } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatDateTime } from "@/lib/format.ts";
import type { FirmAccount } from "@server/domains/accounts/firm-schemas.ts";
import { useUpdateAccount } from "./use-account-changes.ts";

/**
 * The client record's notice that a claimed login left the account (docs/security.md, Round 4): its
 * address's owner proved it after someone had used it unproven, so the account's people, invitations
 * and documents may be that earlier holder's doing. The firm checks them, then marks it reviewed.
 */
export function ClaimReviewNotice({ account, mayManage }: { account: FirmAccount; mayManage: boolean }) {
  const update = useUpdateAccount();
  const review = account.claim_review;
  if (!review) return null;
  return (
    <section
      aria-labelledby="claim-review-heading"
      className="grid gap-3 rounded-xl border border-destructive/30 bg-card p-4 sm:grid-cols-[auto_1fr_auto] sm:items-start sm:p-6"
    >
      <ShieldAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-destructive" />
      <div className="grid min-w-0 gap-1 text-sm">
        <h2 id="claim-review-heading" className="font-semibold">
          Needs review: a claimed login left this account
        </h2>
        <p className="break-words">
          On {formatDateTime(review.since)}, the owner of {review.email ?? "its address"} proved the address of a login that had used it without
          proving it, and that login was taken out of this account. Its people, invitations and documents may be the earlier holder&apos;s: check
          them. If the account was the owner&apos;s after all, add them again under People.
        </p>
      </div>
      {mayManage && (
        <Button
          variant="outline"
          size="sm"
          className="justify-self-start"
          disabled={update.isPending}
          onClick={() =>
            update.mutate(
              { id: account.id, claim_reviewed: true },
              {
                onSuccess: () => toast.success(`${account.name} is marked reviewed.`),
                onError: (err) => toast.error(errorDetail(err) ?? "The account could not be marked reviewed."),
              },
            )
          }
        >
          Mark Reviewed
        </Button>
      )}
    </section>
  );
}
