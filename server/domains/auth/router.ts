import { router } from "../../trpc/init.ts";
import { authedProcedure, publicProcedure } from "../../trpc/procedures.ts";
import { cancelEmailChangeInput, confirmEmailChangeInput } from "../profile/schemas.ts";
import { cancelEmailChange, confirmEmailChange } from "../profile/service.ts";
import {
  enrolmentEnableInput,
  enrolmentInput,
  forgotPasswordInput,
  loginInput,
  loginTwoFactorInput,
  passkeyLoginInput,
  passkeyLoginOptionsInput,
  profileInput,
  registerInput,
  resetPasswordInput,
  resetTokenInput,
  verifyEmailInput,
} from "./schemas.ts";
import { resendVerification, verifyEmail } from "./email-verification.ts";
import { checkResetToken, requestPasswordReset, resetPassword } from "./password-reset.ts";
import { completeExternalSignIn } from "./external-sign-in.ts";
import { invitationPublicProcedures } from "../invitations/router.ts";
import { passkeyLogin, passkeyLoginOptions } from "./passkey-sign-in.ts";
import { greeting, loginWithPassword, logout, register } from "./service.ts";
import { enrolmentEnable, enrolmentSetup, loginTwoFactor } from "./two-factor-sign-in.ts";

export const authRouter = router({
  register: publicProcedure.input(registerInput).mutation(({ ctx, input }) => register(ctx, input)),
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => loginWithPassword(ctx, input, "client")),
  /** The second step of a sign-in (either portal's): the challenge the password step answered, and a code. */
  loginTwoFactor: publicProcedure.input(loginTwoFactorInput).mutation(({ ctx, input }) => loginTwoFactor(ctx, input)),
  /** An account that must enrol before it signs in: a key for its authenticator app... */
  enrolmentSetup: publicProcedure.input(enrolmentInput).mutation(({ ctx, input }) => enrolmentSetup(ctx, input)),
  /** ...and, with a code from the app, two-factor sign-in on and the session. */
  enrolmentEnable: publicProcedure.input(enrolmentEnableInput).mutation(({ ctx, input }) => enrolmentEnable(ctx, input)),
  passkeyLoginOptions: publicProcedure.input(passkeyLoginOptionsInput).mutation(({ ctx, input }) => passkeyLoginOptions(ctx, input)),
  passkeyLogin: publicProcedure.input(passkeyLoginInput).mutation(({ ctx, input }) => passkeyLogin(ctx, input)),
  /** Redeems the link sent to a new address; public, since the link may open in a browser not signed in. */
  confirmEmailChange: publicProcedure.input(confirmEmailChangeInput).mutation(({ ctx, input }) => confirmEmailChange(ctx, input)),
  /** Redeems the link in the notice to the current address: the pending change stops. Public, like the one above. */
  cancelEmailChange: publicProcedure.input(cancelEmailChangeInput).mutation(({ ctx, input }) => cancelEmailChange(ctx, input)),
  logout: publicProcedure.mutation(({ ctx }) => logout(ctx)),
  me: authedProcedure.query(({ ctx }) => ctx.user),
  /** Whether the dashboard says "Welcome" (a first sign-in) or "Welcome back". */
  greeting: authedProcedure.query(({ ctx }) => greeting(ctx)),
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
  ...invitationPublicProcedures,
});
