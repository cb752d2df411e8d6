// When others' wrong guesses lock an account, its owner hears about it once per lock: they may
// find untrusted browsers refused and should know why. The address may never have been verified,
// so the mail carries nothing the registrant chose: no name, no username.
import { composeEmail } from "../../mail/compose.ts";
import type { Outgoing } from "../../jobs/email.ts";
import type { AppDeps, Context } from "../../trpc/context.ts";
import { firmName } from "../site/service.ts";
import { findUserById } from "./queries.ts";

/** Called without awaiting, after the answer is out; never rejects (a failure is logged). */
export async function sendAccountLockedNotice(ctx: Context, user: { id: string }): Promise<void> {
  try {
    await ctx.jobs.send("email", { kind: "account-locked", userId: user.id });
  } catch (err) {
    ctx.logger.error({ err, userId: user.id }, "account lock notice not queued");
  }
}

export async function lockNoticeMail(deps: AppDeps, job: { userId: string }): Promise<Outgoing | null> {
  const user = await findUserById(deps.db, job.userId);
  if (!user) return null;
  const firm = await firmName(deps);
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
  return { message: { to: user.email, subject: `Sign-in to your ${firm} account is paused`, ...body } };
}
