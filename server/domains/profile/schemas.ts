// The account's own settings (issue 20): profile, password, email, sessions, two-factor sign-in,
// passkeys. Shared by tRPC, REST and the React forms (zod only).
import { z } from "zod";
import { nameText } from "../shared-schemas.ts";
import {
  base64url,
  clientExtensionResults,
  codeSchema,
  emailSchema,
  FILL_ALL_FIELDS,
  languageSchema,
  passwordSchema,
  userOutput,
} from "../auth/schemas.ts";

export const WRONG_PASSWORD = "Current password is incorrect";

/** The password, or for an account without one a code, that says the caller is the owner (see confirmIdentity). */
export const identityProof = z.object({
  password: z.string({ error: "password must be text" }).max(1024, WRONG_PASSWORD).optional(),
  code: codeSchema.optional(),
});

export const updateProfileInput = z.object({
  name: nameText(FILL_ALL_FIELDS).min(1, "Please enter your name").max(100, "Name must be at most 100 characters"),
});

export const updateLanguageInput = z.object({ language: languageSchema });

export const changePasswordInput = z.object({
  current_password: z.string({ error: FILL_ALL_FIELDS }).min(1, "Please enter your current password").max(1024, WRONG_PASSWORD),
  new_password: passwordSchema,
  /** Accepted from clients written before the REST login always answered the token; changes nothing. */
  return_token: z.boolean({ error: "return_token must be true or false" }).optional(),
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

/** This session ends with the others; the new one's token is answered over REST (as a login's), never over /trpc. */
const changePasswordOutput = z.object({ success: z.literal(true), session_token: z.string().optional() });
export const restChangePasswordOutput = changePasswordOutput.extend({ session_token: z.string() });

export const changeEmailInput = identityProof.extend({ new_email: emailSchema });
export type ChangeEmailInput = z.infer<typeof changeEmailInput>;

export const INVALID_EMAIL_CHANGE_LINK = "This email change link is invalid or has expired";
export const confirmEmailChangeInput = z.object({
  token: z.string({ error: INVALID_EMAIL_CHANGE_LINK }).trim().min(1, INVALID_EMAIL_CHANGE_LINK).max(200, INVALID_EMAIL_CHANGE_LINK),
});

export const INVALID_EMAIL_CHANGE_CANCEL_LINK = "This link no longer stops anything: the change was already stopped, confirmed or has expired";
export const cancelEmailChangeInput = z.object({
  token: z
    .string({ error: INVALID_EMAIL_CHANGE_CANCEL_LINK })
    .trim()
    .min(1, INVALID_EMAIL_CHANGE_CANCEL_LINK)
    .max(200, INVALID_EMAIL_CHANGE_CANCEL_LINK),
});

export const accountOutput = z.object({
  user: userOutput,
  /** False for accounts made by Google sign-in that never set one. */
  has_password: z.boolean(),
  /** An address waiting for its confirmation link to be followed. */
  pending_email: z.string().nullable(),
  two_factor: z.object({
    enabled: z.boolean(),
    enabled_at: z.date().nullable(),
    backup_codes_left: z.number().int(),
    /** Whether it may not be turned off: admins, and clients when the firm requires it. */
    required: z.boolean(),
  }),
});
export type AccountOverview = z.infer<typeof accountOutput>;

export const sessionOutput = z.object({
  id: z.string(),
  kind: z.enum(["client", "admin"]),
  created_at: z.date(),
  last_used_at: z.date(),
  ip: z.string().nullable(),
  /** Browser, version and system, as far as they are known: "Chrome 131 on Windows". */
  browser: z.string(),
  /** The session this request came with. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionOutput>;

export const revokeOthersOutput = z.object({ success: z.literal(true), ended: z.number().int() });

export const twoFactorSetupOutput = z.object({
  /** The key as text (base32), for apps that cannot scan. Shown once: it is never answered again after enabling. */
  secret: z.string(),
  otpauth_url: z.string(),
  /** The otpauth URL as a QR code, an SVG document. */
  qr_svg: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupOutput>;

export const enableTwoFactorInput = z.object({ code: codeSchema });

export const backupCodesOutput = z.object({ success: z.literal(true), backup_codes: z.array(z.string()) });

export const disableTwoFactorInput = z.object({
  password: z.string({ error: "password must be text" }).max(1024, WRONG_PASSWORD).optional(),
  code: codeSchema,
});

export const regenerateBackupCodesInput = z.object({ code: codeSchema });

const transports = z.array(z.enum(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"])).max(10);

/** What @simplewebauthn/browser's startRegistration answers (RegistrationResponseJSON). */
const registrationResponseSchema = z.object({
  id: base64url.min(1).max(1366),
  rawId: base64url,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    authenticatorData: base64url.optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url.optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults,
});

export const registerPasskeyInput = z.object({
  name: nameText("Please name the passkey").min(1, "Please name the passkey").max(60, "Passkey names are at most 60 characters"),
  response: registrationResponseSchema,
});

export const passkeyOutput = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.date(),
  last_used_at: z.date().nullable(),
});
export type PasskeyInfo = z.infer<typeof passkeyOutput>;

export const securitySettingsOutput = z.object({ require_client_two_factor: z.boolean() });
export const updateSecuritySettingsInput = z.object({
  require_client_two_factor: z.boolean({ error: "require_client_two_factor must be true or false" }),
});
