/**
 * The link in the verification email (`/?verify_token=...`, built by the server's
 * verificationLink), redeemed by the landing page (redeem-link.ts).
 */
import { type LinkOutcome, redeemLink } from "./redeem-link.ts";

export { VERIFY_TOKEN_PARAM } from "./link-params.ts";

const EMAIL_VERIFIED = "Your email is verified.";
const VERIFICATION_LINK_INVALID = "This verification link is invalid or has expired.";
const VERIFICATION_FAILED = "Your email could not be verified right now. Please open the link again in a moment.";

/** Tells this browser's other tabs (a dashboard left open) that the address is now verified. */
export const VERIFICATION_CHANNEL = "email-verification";

export function redeemVerificationLink(token: string): Promise<LinkOutcome> {
  return redeemLink("/api/auth/verify-email", token, { ok: EMAIL_VERIFIED, invalid: VERIFICATION_LINK_INVALID, failed: VERIFICATION_FAILED }, () => {
    const channel = new BroadcastChannel(VERIFICATION_CHANNEL);
    channel.postMessage("verified");
    channel.close();
  });
}
