import type { AuthedContext, Context } from "../../trpc/context.ts";
import { recordSettingChange } from "../activity/record.ts";
import { clientTwoFactorRequired, setClientTwoFactorRequired } from "./queries.ts";

/** The firm's switch: with it on, every client without a second factor enrols at their next sign-in. */
export async function securitySettings(ctx: Pick<Context, "db">) {
  return { require_client_two_factor: await clientTwoFactorRequired(ctx.db) };
}

export async function updateSecuritySettings(ctx: AuthedContext, input: { require_client_two_factor: boolean }) {
  await ctx.db.transaction().execute(async (tx) => {
    await setClientTwoFactorRequired(tx, input.require_client_two_factor, ctx.now());
    await recordSettingChange(tx, ctx, "require_client_two_factor", input.require_client_two_factor);
  });
  ctx.logger.info({ requireClientTwoFactor: input.require_client_two_factor }, "firm security settings changed");
  return securitySettings(ctx);
}
