/**
 * Redeeming a link from one of our emails on the landing page (`/?<param>=<token>`): the token is
 * posted once over plain fetch, as the page renders without the tRPC client and React Query.
 */
export type LinkOutcome = { ok: boolean; message: string };

type LinkMessages = {
  ok: string;
  /** The link itself is spent, expired or unknown (a 4xx). */
  invalid: string;
  /** Anything else (a 503, a proxy's page, no network): the link may still work when opened again. */
  failed: string;
  /** Answers of particular statuses, such as 409. */
  byStatus?: Record<number, string>;
};

// React runs a page's effects twice in development; the second run must not spend the token again
// (it would answer "invalid" after the first one redeemed it).
const redemptions = new Map<string, Promise<LinkOutcome>>();

export function redeemLink(path: string, token: string, messages: LinkMessages, onRedeemed?: () => void): Promise<LinkOutcome> {
  const key = `${path} ${token}`;
  let redemption = redemptions.get(key);
  if (!redemption) {
    redemption = post(path, token, messages, onRedeemed);
    redemptions.set(key, redemption);
  }
  return redemption;
}

async function post(path: string, token: string, messages: LinkMessages, onRedeemed?: () => void): Promise<LinkOutcome> {
  try {
    const response = await fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token }),
    });
    if (response.ok) {
      onRedeemed?.();
      return { ok: true, message: messages.ok };
    }
    const particular = messages.byStatus?.[response.status];
    if (particular) return { ok: false, message: particular };
    return { ok: false, message: response.status < 500 && response.status !== 429 ? messages.invalid : messages.failed };
  } catch {
    return { ok: false, message: messages.failed };
  }
}
