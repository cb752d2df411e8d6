// When others' wrong guesses lock an account, its owner hears about it once per lock: they may
// find untrusted browsers refused and should know why (the mail: lockNoticeMail in mail.ts).
import type { Context } from "../../trpc/context.ts";

/** Called without awaiting, after the answer is out; never rejects (a failure is logged). */
export async function sendAccountLockedNotice(ctx: Context, user: { id: string }): Promise<void> {
  try {
    await ctx.jobs.send("email", { kind: "account-locked", userId: user.id });
  } catch (err) {
    ctx.logger.error({ err, userId: user.id }, "account lock notice not queued");
  }
}
