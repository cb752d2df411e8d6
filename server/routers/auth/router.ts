import { router } from "../../trpc/init.ts";
import { notImplemented } from "../../trpc/not-implemented.ts";
import { authedProcedure, publicProcedure } from "../../trpc/procedures.ts";
import { forgotPasswordInput, loginInput, profileInput, registerInput, resetPasswordInput } from "./schemas.ts";
import { loginWithPassword, logout, register } from "./service.ts";

export const authRouter = router({
  register: publicProcedure.input(registerInput).mutation(({ ctx, input }) => register(ctx, input)),
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => loginWithPassword(ctx, input, "client")),
  logout: publicProcedure.mutation(({ ctx }) => logout(ctx)),
  me: authedProcedure.query(({ ctx }) => ctx.user),
  forgotPassword: publicProcedure.input(forgotPasswordInput).mutation(async (): Promise<{ success: true }> => notImplemented()),
  resetPassword: publicProcedure.input(resetPasswordInput).mutation(async (): Promise<{ success: true }> => notImplemented()),
  /** Exchanges the one-time id from the external sign-in callback for a session cookie. */
  profile: publicProcedure.input(profileInput).mutation(async (): Promise<{ success: true }> => notImplemented()),
  /** Whether "Continue with Google" is configured, so the dialog can say so instead of failing. */
  googleStatus: publicProcedure.query(({ ctx }) => ({ configured: Boolean(ctx.config.oidc.clientId) })),
});
