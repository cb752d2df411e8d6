import { z } from "zod";
import { nameText } from "../shared-schemas.ts";
import { AUTHENTICATION_FAILED, SIGN_IN_EXPIRED } from "./messages.ts";

export const FILL_ALL_FIELDS = "Please fill in all fields";
export const PASSWORD_TOO_SHORT = "Password must be at least 6 characters long";
export const PASSWORDS_DO_NOT_MATCH = "Passwords do not match";
/**
 * A password built from words, names, dates, keyboard rows or repeats that zxcvbn rates "too" or
 * "very guessable" (score 0 or 1). A short random one is not refused: the spec's minimum is 6
 * characters, and zxcvbn rates every 6-character password at most 1 by its length alone.
 */
export const PASSWORD_GUESSABLE =
  "This password is too easy to guess: it is made of common words, names, dates or patterns. Add another word or two, or choose a less predictable one.";
/** The zxcvbn score from which a password counts as hard to guess (docs/decisions.md, Passwords). */
export const STRONG_PASSWORD_SCORE = 2;

/**
 * The rule on a zxcvbn result, shared by the server's check and the password field's meter (this
 * file holds no zxcvbn code, so the forms that import it stay small): guessable below score 2 when
 * zxcvbn recognised any part of it (a word, a name, a date, a sequence, a keyboard row, a repeat),
 * and always at score 0.
 */
export function isGuessableResult(result: { score: number; sequence: readonly { pattern: string }[] }): boolean {
  if (result.score >= STRONG_PASSWORD_SCORE) return false;
  return result.score === 0 || result.sequence.some((match) => match.pattern !== "bruteforce");
}

const requiredText = (message: string) => z.string({ error: message }).trim().min(1, message);

export const passwordSchema = z
  .string({ error: FILL_ALL_FIELDS })
  .min(1, FILL_ALL_FIELDS)
  .min(6, PASSWORD_TOO_SHORT)
  .max(128, "Password must be at most 128 characters long");

export const usernameSchema = requiredText(FILL_ALL_FIELDS)
  .max(32, "Username must be 3-32 characters: letters, digits, '.', '_' or '-'")
  .regex(/^[A-Za-z0-9._-]{3,32}$/, "Username must be 3-32 characters: letters, digits, '.', '_' or '-'");

export const emailSchema = requiredText(FILL_ALL_FIELDS)
  .max(254, "Please enter a valid email address")
  .pipe(z.email("Please enter a valid email address"));

export const registerInput = z.object({
  username: usernameSchema,
  email: emailSchema,
  name: nameText(FILL_ALL_FIELDS).min(1, FILL_ALL_FIELDS).max(100, "Name must be at most 100 characters"),
  password: passwordSchema,
});
export type RegisterInput = z.infer<typeof registerInput>;

export const loginInput = z.object({
  username: z.string({ error: FILL_ALL_FIELDS }).trim().min(1, FILL_ALL_FIELDS).max(254, "Invalid username or password"),
  password: z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS).max(1024, "Invalid username or password"),
  /** Accepted from clients written before the REST login always answered the token; changes nothing. */
  return_token: z.boolean({ error: "return_token must be true or false" }).optional(),
});
export type LoginInput = z.infer<typeof loginInput>;

export const forgotPasswordInput = z.object({
  email: z
    .string({ error: "Please enter your email address" })
    .trim()
    .min(1, "Please enter your email address")
    .max(254, "Please enter a valid email address")
    .pipe(z.email("Please enter a valid email address")),
});

export const resetPasswordInput = z.object({
  token: requiredText(FILL_ALL_FIELDS).max(200, "Invalid or expired reset token"),
  new_password: passwordSchema,
});

/** `login` is what the user signs in with next (username, or the email), to fill in the form. */
export const resetPasswordOutput = z.object({ success: z.literal(true), login: z.string() });

export const resetTokenInput = z.object({
  token: requiredText(FILL_ALL_FIELDS).max(200, "Invalid or expired reset token"),
});

export const INVALID_VERIFICATION_LINK = "This verification link is invalid or has expired";

export const verifyEmailInput = z.object({
  token: z.string({ error: INVALID_VERIFICATION_LINK }).trim().min(1, INVALID_VERIFICATION_LINK).max(200, INVALID_VERIFICATION_LINK),
});

/** `/profile` posts the one-time id from the Google callback (form field `session_id`). */
export const profileInput = z.object({
  session_id: requiredText(AUTHENTICATION_FAILED).max(200, AUTHENTICATION_FAILED),
});

export const INVALID_CODE = "Invalid authentication code";

/** A code from the authenticator app (6 digits) or a backup code (10 characters, maybe with a dash). */
export const codeSchema = z
  .string({ error: "Enter the code from your authenticator app" })
  .trim()
  .min(1, "Enter the code from your authenticator app")
  .max(32, INVALID_CODE);

const challengeSchema = z.string({ error: SIGN_IN_EXPIRED }).trim().min(1, SIGN_IN_EXPIRED).max(200, SIGN_IN_EXPIRED);

/** The second step of a sign-in: the challenge the password step answered, and a code. */
export const loginTwoFactorInput = z.object({ challenge: challengeSchema, code: codeSchema });

/** An account that must enrol first: its challenge, for setting up the authenticator app. */
export const enrolmentInput = z.object({ challenge: challengeSchema });
export const enrolmentEnableInput = z.object({ challenge: challengeSchema, code: codeSchema });

export const base64url = z
  .string({ error: "Invalid passkey response" })
  .max(65_536, "Invalid passkey response")
  .regex(/^[A-Za-z0-9_-]*$/, "Invalid passkey response");
/** What the browser says of the extensions (none are asked for); other keys are dropped. */
export const clientExtensionResults = z.object({
  appid: z.boolean().optional(),
  credProps: z.object({ rk: z.boolean().optional() }).optional(),
  hmacCreateSecret: z.boolean().optional(),
});

/** What @simplewebauthn/browser's startAuthentication answers (AuthenticationResponseJSON). */
const authenticationResponseSchema = z.object({
  id: base64url.min(1).max(1366),
  rawId: base64url,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults,
});

export const passkeyLoginOptionsInput = z.object({
  /** The admin portal asks for an admin session. */
  portal: z.enum(["client", "admin"], { error: "portal must be client or admin" }).default("client"),
});
export const passkeyLoginInput = z.object({
  response: authenticationResponseSchema,
  /** Accepted from clients written before the REST login always answered the token; changes nothing. */
  return_token: z.boolean({ error: "return_token must be true or false" }).optional(),
});

/** Options for the browser's WebAuthn call, as @simplewebauthn/server writes them. */
export const passkeyOptionsOutput = z.looseObject({ challenge: z.string() });

/** The languages a person may choose (docs/i18n.md); src/lib/i18n.ts lists the same for the web client. */
export const LANGUAGES = ["en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
export const languageSchema = z.enum(LANGUAGES, { error: "language must be en or es" });

export const userOutput = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  auth_provider: z.string(),
  created_at: z.date(),
  is_admin: z.boolean(),
  /** Whether the user has followed a verification link (or signed in with Google, or reset the password by email). */
  email_verified: z.boolean(),
  language: languageSchema,
});
export type PublicUser = z.infer<typeof userOutput>;

/**
 * A finished sign-in: the session cookie is set. Its token is answered too over REST (the
 * specification's login answer), never over /trpc (`answersSessionToken` in trpc/context.ts).
 */
export const signedInOutput = z.object({ success: z.literal(true), session_token: z.string().optional(), user: userOutput });
export type SignedIn = z.infer<typeof signedInOutput>;

/** A finished sign-in as the REST paths answer it: with the session's token. */
export const restSignedInOutput = signedInOutput.extend({ session_token: z.string() });

/**
 * What a password login answers: signed in; or, for an account with a second factor, a challenge
 * for `POST /auth/login/2fa`; or, for an account that must have one and has none (admins, and
 * clients when the firm requires it), a challenge that only enrols (`/auth/login/2fa/setup`, `.../enable`).
 */
const challengeOutputs = [
  z.object({ two_factor_required: z.literal(true), challenge: z.string() }),
  z.object({ two_factor_setup_required: z.literal(true), challenge: z.string() }),
] as const;
export const loginOutput = z.union([signedInOutput, ...challengeOutputs]);
export type LoginResult = z.infer<typeof loginOutput>;
/** The login as the REST paths answer it: signed in with the token, or one of the challenges. */
export const restLoginOutput = z.union([restSignedInOutput, ...challengeOutputs]);

/** Enrolment during sign-in ends signed in, with the backup codes to keep. */
export const restEnrolmentEnableOutput = restSignedInOutput.extend({ backup_codes: z.array(z.string()) });
