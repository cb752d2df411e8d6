/**
 * The client-side checks of the login, registration, forgot- and reset-password forms, with the
 * spec's messages (section 5), in the spec's order. Each answers the first message, or null.
 * The server checks again and has the last word (for example on username format).
 */
import { FILL_ALL_FIELDS, PASSWORD_TOO_SHORT, PASSWORDS_DO_NOT_MATCH } from "@server/domains/auth/schemas.ts";

export { FILL_ALL_FIELDS, PASSWORD_TOO_SHORT, PASSWORDS_DO_NOT_MATCH };
const ENTER_EMAIL = "Please enter your email address";
const MIN_PASSWORD_LENGTH = 6;

const blank = (value: string) => value.trim() === "";

export function validateLogin(form: { username: string; password: string }): string | null {
  return blank(form.username) || form.password === "" ? FILL_ALL_FIELDS : null;
}

export type RegisterForm = { username: string; email: string; name: string; password: string; confirmPassword: string };

export function validateRegister(form: RegisterForm): string | null {
  if (blank(form.username) || blank(form.email) || blank(form.name) || form.password === "") return FILL_ALL_FIELDS;
  if (form.password !== form.confirmPassword) return PASSWORDS_DO_NOT_MATCH;
  if (form.password.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT;
  return null;
}

export function validateForgotPassword(form: { email: string }): string | null {
  return blank(form.email) ? ENTER_EMAIL : null;
}

export function validateResetPassword(form: { token: string; newPassword: string; confirmPassword: string }): string | null {
  if (blank(form.token) || form.newPassword === "" || form.confirmPassword === "") return FILL_ALL_FIELDS;
  if (form.newPassword !== form.confirmPassword) return PASSWORDS_DO_NOT_MATCH;
  if (form.newPassword.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT;
  return null;
}
