/**
 * The link in the notice sent to the current address when a change is asked
 * (`/?email_change_cancel=...`, built by the server's emailChangeCancelLink): it stops the change.
 * Redeemed by the landing page (redeem-link.ts).
 */
import { type LinkOutcome, redeemLink } from "./redeem-link.ts";

export { EMAIL_CHANGE_CANCEL_PARAM } from "./link-params.ts";

export function redeemEmailChangeCancelLink(token: string): Promise<LinkOutcome> {
  return redeemLink("/api/auth/cancel-email-change", token, {
    ok: "The email change was stopped: your account keeps this address. If you did not ask for it, reset your password now.",
    invalid: "This link no longer stops anything: the change was already stopped, confirmed or has expired.",
    failed: "The email change could not be stopped right now. Please open the link again in a moment.",
  });
}
