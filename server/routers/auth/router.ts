import { router } from "../../trpc/init.ts";
import { authedProcedure, publicProcedure } from "../../trpc/procedures.ts";
import { forgotPasswordInput, loginInput, profileInput, registerInput, resetPasswordInput, resetTokenInput, verifyEmailInput } from "./schemas.ts";
import { resendVerification, verifyEmail } from "./email-verification.ts";
import { checkResetToken, requestPasswordReset, resetPassword } from "./password-reset.ts";
import { completeExternalSignIn } from "./external-sign-in.ts";
import { loginWithPassword, logout, register } from "./service.ts";

export const authRouter = router({
  register: publicProcedure.input(registerInput).mutation(({ ctx, input }) => register(ctx, input)),
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => loginWithPassword(ctx, input, "client")),
  logout: publicProcedure.mutation(({ ctx }) => logout(ctx)),
  me: authedProcedure.query(({ ctx }) => ctx.user),
  /** The signed-in user or null: the pages' session check, which must not answer 401 to visitors. */
  session: publicProcedure.query(({ ctx }) => ctx.user),
  forgotPassword: publicProcedure.input(forgotPasswordInput).mutation(({ ctx, input }) => requestPasswordReset(ctx, input)),
  resetPassword: publicProcedure.input(resetPasswordInput).mutation(({ ctx, input }) => resetPassword(ctx, input)),
  /** Whether a reset link still works, without spending it; a mutation so the token stays out of URLs and logs. */
  checkResetToken: publicProcedure.input(resetTokenInput).mutation(({ ctx, input }) => checkResetToken(ctx, input)),
  /** Redeems the link from the verification email; public, since the link may open in a browser not signed in. */
  verifyEmail: publicProcedure.input(verifyEmailInput).mutation(({ ctx, input }) => verifyEmail(ctx, input)),
  resendVerification: authedProcedure.mutation(({ ctx }) => resendVerification(ctx)),
  /** Exchanges the one-time id from the external sign-in callback for a session cookie. */
  profile: publicProcedure.input(profileInput).mutation(({ ctx, input }) => completeExternalSignIn(ctx, input.session_id)),
  /** Whether "Continue with Google" is configured, so the dialog can say so instead of failing. */
  googleStatus: publicProcedure.query(({ ctx }) => ({ configured: Boolean(ctx.config.oidc.clientId) })),
});
