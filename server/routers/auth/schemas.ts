import { z } from "zod";
import { AUTHENTICATION_FAILED } from "./messages.ts";

export const FILL_ALL_FIELDS = "Please fill in all fields";
export const PASSWORD_TOO_SHORT = "Password must be at least 6 characters long";
export const PASSWORDS_DO_NOT_MATCH = "Passwords do not match";

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
  name: requiredText(FILL_ALL_FIELDS).max(100, "Name must be at most 100 characters"),
  password: passwordSchema,
});
export type RegisterInput = z.infer<typeof registerInput>;

/** The registration form adds confirmPassword, which exists only on the client. */
export const registerFormInput = registerInput
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { message: PASSWORDS_DO_NOT_MATCH, path: ["confirmPassword"] });

export const loginInput = z.object({
  username: z.string({ error: FILL_ALL_FIELDS }).trim().min(1, FILL_ALL_FIELDS).max(254, "Invalid username or password"),
  password: z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS).max(1024, "Invalid username or password"),
  /** A client that sends the token as `Authorization: Bearer` asks for it; a browser keeps the cookie. */
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
});
export type PublicUser = z.infer<typeof userOutput>;
