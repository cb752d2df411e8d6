import { Badge } from "@/components/ui/badge.tsx";
import { formatDate } from "@/lib/format.ts";
import { REQUEST_STATUS_LABELS } from "@/lib/signature-fields.ts";
import type { SignatureStatus } from "@server/domains/signatures/schemas.ts";

export function SignatureStatusBadge({ status }: { status: SignatureStatus }) {
  if (status === "declined" || status === "voided") {
    return <Badge className="border-destructive/30 bg-destructive/10 text-destructive">{REQUEST_STATUS_LABELS[status]}</Badge>;
  }
  return <Badge variant={status === "completed" ? "success" : "secondary"}>{REQUEST_STATUS_LABELS[status]}</Badge>;
}

/** One signer's progress in words: signed (when), declined, or still to sign. */
export function SignerStatus({ status, signedAt }: { status: "pending" | "signed" | "declined"; signedAt: Date | null }) {
  if (status === "signed") return <span className="font-medium text-accent-soft-foreground">signed{signedAt ? ` ${formatDate(signedAt)}` : ""}</span>;
  if (status === "declined") return <span className="font-medium text-destructive">declined</span>;
  return <span className="text-muted-foreground">waiting</span>;
}
