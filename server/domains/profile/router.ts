import { router } from "../../trpc/init.ts";
import { authedProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { deletePasskey, passkeyRegistrationOptions, passkeys, registerPasskey } from "./passkeys.ts";
import {
  changeEmailInput,
  changePasswordInput,
  disableTwoFactorInput,
  enableTwoFactorInput,
  identityProof,
  regenerateBackupCodesInput,
  registerPasskeyInput,
  updateLanguageInput,
  updateProfileInput,
  updateSecuritySettingsInput,
} from "./schemas.ts";
import {
  accountOverview,
  changeEmail,
  changePassword,
  deleteAccount,
  revokeOtherSessions,
  revokeSession,
  sessionList,
  updateLanguage,
  updateProfile,
} from "./service.ts";
import { idInput } from "../shared-schemas.ts";
import { proveIdentity } from "./identity.ts";
import { securitySettings, updateSecuritySettings } from "./settings.ts";
import { disableTwoFactor, enableOwnTotp, regenerateBackupCodes, setUpOwnTotp } from "./two-factor.ts";

/** The signed-in user's own account, from either portal. */
export const accountRouter = router({
  overview: authedProcedure.query(({ ctx }) => accountOverview(ctx)),
  updateProfile: authedProcedure.input(updateProfileInput).mutation(({ ctx, input }) => updateProfile(ctx, input)),
  updateLanguage: authedProcedure.input(updateLanguageInput).mutation(({ ctx, input }) => updateLanguage(ctx, input)),
  changePassword: authedProcedure.input(changePasswordInput).mutation(({ ctx, input }) => changePassword(ctx, input)),
  changeEmail: authedProcedure.input(changeEmailInput).mutation(({ ctx, input }) => changeEmail(ctx, input)),
  deleteAccount: authedProcedure.input(identityProof).mutation(({ ctx, input }) => deleteAccount(ctx, input)),
  /** The password or a code, recorded on the session as a fresh proof for the next 10 minutes. */
  proveIdentity: authedProcedure.input(identityProof).mutation(({ ctx, input }) => proveIdentity(ctx, input)),
  sessions: authedProcedure.query(({ ctx }) => sessionList(ctx)),
  revokeSession: authedProcedure.input(idInput).mutation(({ ctx, input }) => revokeSession(ctx, input)),
  revokeOtherSessions: authedProcedure.mutation(({ ctx }) => revokeOtherSessions(ctx)),
  setupTwoFactor: authedProcedure.mutation(({ ctx }) => setUpOwnTotp(ctx)),
  enableTwoFactor: authedProcedure.input(enableTwoFactorInput).mutation(({ ctx, input }) => enableOwnTotp(ctx, input)),
  disableTwoFactor: authedProcedure.input(disableTwoFactorInput).mutation(({ ctx, input }) => disableTwoFactor(ctx, input)),
  regenerateBackupCodes: authedProcedure.input(regenerateBackupCodesInput).mutation(({ ctx, input }) => regenerateBackupCodes(ctx, input)),
  passkeys: authedProcedure.query(({ ctx }) => passkeys(ctx)),
  passkeyRegistrationOptions: authedProcedure.mutation(({ ctx }) => passkeyRegistrationOptions(ctx)),
  registerPasskey: authedProcedure.input(registerPasskeyInput).mutation(({ ctx, input }) => registerPasskey(ctx, input)),
  deletePasskey: authedProcedure.input(idInput).mutation(({ ctx, input }) => deletePasskey(ctx, input)),
});

/** The firm's security settings, the firm sub-router `admin.securitySettings` (the admin Site tab). */
export const securitySettingsFirmRouter = router({
  get: staffProcedure("settings").query(({ ctx }) => securitySettings(ctx)),
  update: staffProcedure("settings")
    .input(updateSecuritySettingsInput)
    .mutation(({ ctx, input }) => updateSecuritySettings(ctx, input)),
});
