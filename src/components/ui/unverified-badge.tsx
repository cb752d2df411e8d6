import { MailQuestion } from "lucide-react";
import { Badge } from "./badge.tsx";

/**
 * Marks a client account that never confirmed its email address wherever the firm lists or picks
 * clients (docs/security.md, Round 3): anyone may register any address, so such an account may not
 * belong to the person it names.
 */
export function UnverifiedBadge({ email_verified }: { email_verified: boolean }) {
  if (email_verified) return null;
  return (
    <Badge variant="muted" title="This account never confirmed its email address: it may not belong to the person it names.">
      <MailQuestion aria-hidden="true" />
      Unverified
    </Badge>
  );
}
