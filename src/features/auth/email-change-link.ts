/**
 * The link sent to a new email address (`/?email_change_token=...`, built by the server's
 * emailChangeLink), redeemed by the landing page (redeem-link.ts).
 */
import { type LinkOutcome, redeemLink } from "./redeem-link.ts";

export { EMAIL_CHANGE_TOKEN_PARAM } from "./link-params.ts";

export function redeemEmailChangeLink(token: string): Promise<LinkOutcome> {
  return redeemLink("/api/auth/confirm-email-change", token, {
    ok: "Your new email address is confirmed.",
    invalid: "This email change link is invalid or has expired.",
    failed: "Your new email address could not be confirmed right now. Please open the link again in a moment.",
    byStatus: { 409: "That email address belongs to another account now." },
  });
}
