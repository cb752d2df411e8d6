/**
 * The link sent to a new email address (`/?email_change_token=...`, built by the server's
 * emailChangeLink). Redeemed by the landing page over plain fetch, as the verification link is.
 */
export const EMAIL_CHANGE_TOKEN_PARAM = "email_change_token";

export const EMAIL_CHANGED = "Your new email address is confirmed.";
export const EMAIL_CHANGE_LINK_INVALID = "This email change link is invalid or has expired.";
const EMAIL_CHANGE_FAILED = "Your new email address could not be confirmed right now. Please open the link again in a moment.";

export type EmailChangeOutcome = { ok: boolean; message: string };

// React runs a page's effects twice in development; the second run must not spend the token again.
const redemptions = new Map<string, Promise<EmailChangeOutcome>>();

export function redeemEmailChangeLink(token: string): Promise<EmailChangeOutcome> {
  let redemption = redemptions.get(token);
  if (!redemption) {
    redemption = confirm(token);
    redemptions.set(token, redemption);
  }
  return redemption;
}

async function confirm(token: string): Promise<EmailChangeOutcome> {
  try {
    const response = await fetch("/api/auth/confirm-email-change", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token }),
    });
    if (response.ok) return { ok: true, message: EMAIL_CHANGED };
    if (response.status === 409) return { ok: false, message: "That email address belongs to another account now." };
    return { ok: false, message: response.status < 500 && response.status !== 429 ? EMAIL_CHANGE_LINK_INVALID : EMAIL_CHANGE_FAILED };
  } catch {
    return { ok: false, message: EMAIL_CHANGE_FAILED };
  }
}
