import type { Router } from "express";
import type { AppDeps } from "../trpc/context.ts";
import { restCall } from "./handler.ts";

export function appointmentRoutes(api: Router, deps: AppDeps): void {
  api.get("/appointments", restCall(deps, (c) => c.appointments.list()));
  api.post("/appointments", restCall(deps, (c, req) => c.appointments.request(req.body), { status: 201 }));
}
