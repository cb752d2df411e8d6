// The hourly cap on the mail one of the firm's people has the portal send to clients
// (docs/security.md, "Round 4 (issue 47): reminders and the mail cap count only mail that goes"):
// an action is charged only when it queues a mail to a client, and not at all when it fails. Whether
// it mails is known only inside its transaction (the row it locks, the account's people), and the
// limiter cannot be asked there (on PGlite the transaction holds the one connection), so the action
// runs with or without a charge taken first, and says which it needs:
// - charged ahead (the likely case), a run that mailed nobody or failed gives the point back;
// - not charged, a run about to queue mail throws `ChargeFirst` from `mayMail`, its transaction rolls
//   back, and it runs again charged. No mail ever goes uncharged, whatever changed in between.
import type { FirmContext } from "./context.ts";

class ChargeFirst extends Error {}

export type FirmMail = {
  /** Call in the transaction right before queueing a client's mail: refuses a run not charged for one. */
  mayMail(): void;
};

/**
 * Runs `action` charging the caller's firm-mail cap only if it queues a client's mail. `likely` is a
 * guess read before the transaction (the action's input, an unlocked read): a right guess runs the
 * action once; a wrong one costs a second run or a point given back, never a mail uncharged.
 */
export async function chargedIfMailing<T>(
  ctx: Pick<FirmContext, "rateLimits" | "user">,
  likely: boolean,
  action: (mail: FirmMail) => Promise<T>,
): Promise<T> {
  let charge = likely ? await ctx.rateLimits.chargeFirmMailToClients(ctx.user.id) : null;
  for (;;) {
    let mailed = false;
    const charged = charge !== null;
    try {
      const result = await action({
        mayMail() {
          if (!charged) throw new ChargeFirst();
          mailed = true;
        },
      });
      if (charge && !mailed) await charge.giveBack();
      return result;
    } catch (err) {
      if (charge) await charge.giveBack();
      if (!(err instanceof ChargeFirst)) throw err;
      charge = await ctx.rateLimits.chargeFirmMailToClients(ctx.user.id);
    }
  }
}
