import type { Router } from "express";
import type { AppDeps } from "../trpc/context.ts";
import { restCall } from "./handler.ts";

export function authRoutes(api: Router, deps: AppDeps): void {
  api.post("/auth/register", restCall(deps, (c, req) => c.auth.register(req.body)));
  api.post("/auth/login", restCall(deps, (c, req) => c.auth.login(req.body)));
  api.post("/auth/logout", restCall(deps, (c) => c.auth.logout()));
  api.get("/auth/me", restCall(deps, (c) => c.auth.me()));
  api.post("/auth/profile", restCall(deps, (c, req) => c.auth.profile(req.body)));
  api.post("/auth/forgot-password", restCall(deps, (c, req) => c.auth.forgotPassword(req.body)));
  api.post("/auth/reset-password", restCall(deps, (c, req) => c.auth.resetPassword(req.body)));
  api.post("/auth/verify-email", restCall(deps, (c, req) => c.auth.verifyEmail(req.body)));
  api.post("/auth/resend-verification", restCall(deps, (c) => c.auth.resendVerification()));
}
