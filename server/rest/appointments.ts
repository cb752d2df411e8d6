import { z } from "zod";
import { appointmentOutput, requestAppointmentInput } from "../routers/appointments/schemas.ts";
import type { RestRoute } from "./route.ts";

export const appointmentRoutes: RestRoute[] = [
  {
    method: "get",
    path: "/appointments",
    summary: "The caller's appointments, upcoming first",
    tag: "appointments",
    access: "client",
    response: z.array(appointmentOutput),
    call: (c) => c.appointments.list(),
  },
  {
    method: "post",
    path: "/appointments",
    summary: "Request an appointment",
    tag: "appointments",
    access: "client",
    body: requestAppointmentInput,
    response: appointmentOutput,
    status: 201,
    call: (c, r) => c.appointments.request(r.body as never),
  },
];
