import { z } from "zod";
import {
  adminAppointmentOutput,
  adminDocumentOutput,
  adminStatsOutput,
  adminUserOutput,
  appointmentListInput,
  listPageInput,
  setUserQuotaInput,
  userQuotaOutput,
} from "../routers/admin/schemas.ts";
import { createAppointmentInput, updateAppointmentInput } from "../routers/appointments/schemas.ts";
import { loginInput } from "../routers/auth/schemas.ts";
import { consultationRequestOutput } from "../routers/consultation/schemas.ts";
import { successOutput } from "../routers/shared-schemas.ts";
import { siteContentOutput, updateSiteContentInput, updateTestimonialsInput } from "../routers/site/schemas.ts";
import { loginOutput } from "./auth.ts";
import { downloadReply } from "./documents.ts";
import { downloadRoute } from "./download.ts";
import { pageQuery, type RestRoute } from "./route.ts";

/** REST lists take the offset as `offset` too. */
const pageParams = listPageInput.extend({ offset: z.coerce.number().int().min(0).optional() });
const body = (r: { body: unknown }) => (r.body ?? {}) as Record<string, unknown>;

export const adminRoutes: RestRoute[] = [
  { method: "post", path: "/admin/login", summary: "Log in (admin portal)", tag: "admin", access: "public", body: loginInput, response: loginOutput, call: (c, r) => c.admin.login(r.body as never) },
  { method: "get", path: "/admin/stats", summary: "Counts and recent users and documents", tag: "admin", access: "admin", response: adminStatsOutput, call: (c) => c.admin.stats() },
  { method: "get", path: "/admin/users", summary: "Users, newest first", tag: "admin", access: "admin", query: pageParams, paged: true, response: z.array(adminUserOutput), call: (c, r) => c.admin.users(pageQuery(r)) },
  { method: "patch", path: "/admin/users/:id/quota", summary: "Set a client's storage quota in MB (null: the default)", tag: "admin", access: "admin", body: setUserQuotaInput.omit({ id: true }), response: userQuotaOutput, call: (c, r) => c.admin.setUserQuota({ id: r.params.id!, quota_mb: body(r).quota_mb as never }) },
  { method: "delete", path: "/admin/users/:id", summary: "Delete a non-admin user and all their data (400 for an admin)", tag: "admin", access: "admin", response: successOutput, call: (c, r) => c.admin.deleteUser({ id: r.params.id! }) },
  { method: "get", path: "/admin/documents", summary: "Every user's documents", tag: "admin", access: "admin", query: pageParams, paged: true, response: z.array(adminDocumentOutput), call: (c, r) => c.admin.documents(pageQuery(r)) },
  { method: "get", path: "/admin/documents/:id/download", summary: "Download any document", tag: "admin", access: "admin", response: downloadReply, handler: downloadRoute((transfers, id) => transfers.admin.download({ id })) },
  { method: "delete", path: "/admin/documents/:id", summary: "Delete any document", tag: "admin", access: "admin", response: successOutput, call: (c, r) => c.admin.deleteDocument({ id: r.params.id! }) },
  { method: "get", path: "/admin/site-content", summary: "Stored site content (empty until initialized)", tag: "admin", access: "admin", response: siteContentOutput, call: (c) => c.admin.siteContent() },
  { method: "put", path: "/admin/site-content/:section/:key", summary: "Update one site content value", tag: "admin", access: "admin", body: z.object({ value: updateSiteContentInput.shape.value }), response: successOutput, call: (c, r) => c.admin.updateSiteContent({ section: r.params.section, key: r.params.key, value: body(r).value } as never) },
  { method: "delete", path: "/admin/site-content/:section/:key", summary: "Put one site content value back to its default", tag: "admin", access: "admin", response: successOutput, call: (c, r) => c.admin.resetSiteContent({ section: r.params.section, key: r.params.key } as never) },
  { method: "post", path: "/admin/init-site-content", summary: "Store the defaults for every key not stored yet", tag: "admin", access: "admin", response: successOutput, call: (c) => c.admin.initSiteContent() },
  { method: "put", path: "/admin/testimonials", summary: "Replace the testimonials list", tag: "admin", access: "admin", body: updateTestimonialsInput, response: successOutput, call: (c, r) => c.admin.updateTestimonials(r.body as never) },
  { method: "get", path: "/admin/consultations", summary: "Consultation requests, newest first", tag: "admin", access: "admin", query: pageParams, paged: true, response: z.array(consultationRequestOutput), call: (c, r) => c.admin.consultations(pageQuery(r)) },
  { method: "put", path: "/admin/consultations/:id", summary: "Mark a consultation request handled (or not)", tag: "admin", access: "admin", body: z.object({ handled: z.boolean().default(true) }), response: successOutput, call: (c, r) => c.admin.setConsultationHandled({ id: r.params.id!, handled: body(r).handled as never }) },
  { method: "post", path: "/admin/consultations/:id/resend-email", summary: "Send again the firm's email about a request whose every try failed (409 otherwise)", tag: "admin", access: "admin", response: successOutput, call: (c, r) => c.admin.resendConsultationEmail({ id: r.params.id! }) },
  { method: "get", path: "/admin/appointments", summary: "Every client's appointments", tag: "admin", access: "admin", query: appointmentListInput.extend({ offset: z.coerce.number().int().min(0).optional() }), paged: true, response: z.array(adminAppointmentOutput), call: (c, r) => c.admin.appointments(pageQuery(r)) },
  { method: "post", path: "/admin/appointments", summary: "Create an appointment for a client", tag: "admin", access: "admin", body: createAppointmentInput, response: adminAppointmentOutput, status: 201, call: (c, r) => c.admin.createAppointment(r.body as never) },
  { method: "patch", path: "/admin/appointments/:id", summary: "Reschedule or change the status of an appointment", tag: "admin", access: "admin", body: updateAppointmentInput.omit({ id: true }), response: adminAppointmentOutput, call: (c, r) => c.admin.updateAppointment({ ...body(r), id: r.params.id } as never) },
];
