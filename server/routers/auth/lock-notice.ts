// When others' wrong guesses lock an account, its owner hears about it once per lock: they may
// find untrusted browsers refused and should know why. The address may never have been verified,
// so the mail carries nothing the registrant chose: no name, no username.
import { composeEmail } from "../../mail/compose.ts";
import { deliverInBackground } from "../../mail/deliver.ts";
import type { Context } from "../../trpc/context.ts";
import { firmName } from "../site/service.ts";

/** Called without awaiting, after the answer is out; never rejects (deliverInBackground logs). */
export async function sendAccountLockedNotice(ctx: Context, user: { id: string; email: string }): Promise<void> {
  try {
    const firm = await firmName(ctx);
    const body = composeEmail({
      firmName: firm,
      heading: "Sign-in to your account is paused",
      paragraphs: [
        "Hello,",
        "Someone has entered many wrong passwords for your client portal account within the last hour. To protect the account, we have paused signing in to it for up to an hour, except in browsers you have signed in with before: those still work.",
        "None of these attempts signed in. If they were not yours, choosing a long password you use nowhere else keeps it that way.",
      ],
      footer: "You receive this email because this address belongs to a client portal account.",
    });
    await deliverInBackground(
      ctx.mailer,
      ctx.logger,
      { to: user.email, subject: `Sign-in to your ${firm} account is paused`, ...body },
      { what: { kind: "account-locked", userId: user.id } },
    );
  } catch (err) {
    ctx.logger.error({ err, userId: user.id }, "account lock notice not sent");
  }
}
