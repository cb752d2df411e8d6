/**
 * The link in the verification email (`/?verify_token=...`, built by the server's
 * verificationLink). The landing page redeems it over plain fetch, as it reads the session: it
 * renders without the tRPC client and React Query.
 */
export const VERIFY_TOKEN_PARAM = "verify_token";

export const EMAIL_VERIFIED = "Your email is verified.";
export const VERIFICATION_LINK_INVALID = "This verification link is invalid or has expired.";
const VERIFICATION_FAILED = "Your email could not be verified right now. Please open the link again in a moment.";

export type VerificationOutcome = { ok: boolean; message: string };

/** Tells this browser's other tabs (a dashboard left open) that the address is now verified. */
export const VERIFICATION_CHANNEL = "email-verification";

// React runs a page's effects twice in development; the second run must not spend the token again
// (it would answer "invalid" after the first verified it).
const redemptions = new Map<string, Promise<VerificationOutcome>>();

export function redeemVerificationLink(token: string): Promise<VerificationOutcome> {
  let redemption = redemptions.get(token);
  if (!redemption) {
    redemption = verify(token);
    redemptions.set(token, redemption);
  }
  return redemption;
}

async function verify(token: string): Promise<VerificationOutcome> {
  try {
    const response = await fetch("/api/auth/verify-email", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token }),
    });
    if (response.ok) {
      const channel = new BroadcastChannel(VERIFICATION_CHANNEL);
      channel.postMessage("verified");
      channel.close();
      return { ok: true, message: EMAIL_VERIFIED };
    }
    // A 4xx is about the link itself; anything else (a 503, a proxy's page) may pass if tried again.
    return { ok: false, message: response.status < 500 && response.status !== 429 ? VERIFICATION_LINK_INVALID : VERIFICATION_FAILED };
  } catch {
    return { ok: false, message: VERIFICATION_FAILED };
  }
}
