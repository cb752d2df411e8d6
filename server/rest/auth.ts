import { z } from "zod";
import {
  forgotPasswordInput,
  loginInput,
  profileInput,
  registerInput,
  resetPasswordInput,
  resetPasswordOutput,
  userOutput,
  verifyEmailInput,
} from "../routers/auth/schemas.ts";
import { successOutput } from "../routers/shared-schemas.ts";
import type { RestRoute } from "./route.ts";

export const loginOutput = z.object({ success: z.literal(true), session_token: z.string().optional(), user: userOutput });

export const authRoutes: RestRoute[] = [
  { method: "post", path: "/auth/register", summary: "Register a client account", tag: "auth", access: "public", body: registerInput, response: successOutput, call: (c, r) => c.auth.register(r.body as never) },
  { method: "post", path: "/auth/login", summary: "Log in (client portal)", tag: "auth", access: "public", body: loginInput, response: loginOutput, call: (c, r) => c.auth.login(r.body as never) },
  { method: "post", path: "/auth/logout", summary: "Log out: ends the session", tag: "auth", access: "public", response: successOutput, call: (c) => c.auth.logout() },
  { method: "get", path: "/auth/me", summary: "The signed-in user", tag: "auth", access: "client", response: userOutput, call: (c) => c.auth.me() },
  { method: "post", path: "/auth/profile", summary: "Exchange the one-time id from the Google callback for a session (only in the browser the callback answered)", tag: "auth", access: "public", body: profileInput, response: successOutput, call: (c, r) => c.auth.profile(r.body as never) },
  { method: "post", path: "/auth/forgot-password", summary: "Email a password reset link (always answers success)", tag: "auth", access: "public", body: forgotPasswordInput, response: successOutput, call: (c, r) => c.auth.forgotPassword(r.body as never) },
  { method: "post", path: "/auth/reset-password", summary: "Set a new password with a reset token", tag: "auth", access: "public", body: resetPasswordInput, response: resetPasswordOutput, call: (c, r) => c.auth.resetPassword(r.body as never) },
  { method: "post", path: "/auth/verify-email", summary: "Verify the email address with the token from the verification link", tag: "auth", access: "public", body: verifyEmailInput, response: successOutput, call: (c, r) => c.auth.verifyEmail(r.body as never) },
  { method: "post", path: "/auth/resend-verification", summary: "Email a new verification link to the caller's address", tag: "auth", access: "client", response: successOutput, call: (c) => c.auth.resendVerification() },
];
