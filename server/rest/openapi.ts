// The OpenAPI 3.1 document of the REST paths under /api, built from the same zod schemas the
// procedures validate with (zod 4's JSON Schema output, which is the dialect OpenAPI 3.1 uses).
// test/server/openapi.test.ts compares its paths with the routes Express actually serves.
import type { RequestHandler, Router } from "express";
import { z } from "zod";
import { appointmentListInput, listPageInput, setUserQuotaInput } from "../routers/admin/schemas.ts";
import {
  appointmentOutput,
  createAppointmentInput,
  requestAppointmentInput,
  updateAppointmentInput,
} from "../routers/appointments/schemas.ts";
import { forgotPasswordInput, loginInput, profileInput, registerInput, resetPasswordInput, userOutput, verifyEmailInput } from "../routers/auth/schemas.ts";
import { consultationRequestInput } from "../routers/consultation/schemas.ts";
import { documentOutput, storageUsageOutput } from "../routers/documents/schemas.ts";
import { createFolderInput, folderOutput, idSchema } from "../routers/folders/schemas.ts";
import { SITE_SECTIONS, updateSiteContentInput, updateTestimonialsInput } from "../routers/site/schemas.ts";
import type { AppDeps } from "../trpc/context.ts";

type Access = "public" | "client" | "admin";
type Body = z.ZodType | { multipart: z.ZodType };
type Reply = z.ZodType | { description: string; contentType?: string; status?: number };

export type Operation = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Express syntax (`/folders/:id`), relative to /api. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  body?: Body;
  query?: z.ZodObject;
  response: Reply;
  status?: number;
  /** Admin lists answer a JSON array and put the total in X-Total-Count. */
  paged?: boolean;
};

const success = z.object({ success: z.literal(true) });
const siteContent = z.record(z.string(), z.record(z.string(), z.object({ value: z.string() })));
const userStorage = storageUsageOutput.extend({ quota_mb: z.number().nullable() });
const adminUser = userOutput.extend(userStorage.shape);
const adminDocument = documentOutput.extend({ user_id: z.string(), user_name: z.string(), user_email: z.string() });
const adminAppointment = appointmentOutput.extend({ user_id: z.string(), user_name: z.string(), user_email: z.string() });
const consultationRequest = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  service: z.string().nullable(),
  preferredDate: z.string().nullable(),
  preferredTime: z.string().nullable(),
  message: z.string(),
  created_at: z.date(),
  handled_at: z.date().nullable(),
  email_sent_at: z.date().nullable(),
});
const loginResult = z.object({ success: z.literal(true), session_token: z.string().optional(), user: userOutput });
const adminStats = z.object({
  stats: z.object({ total_users: z.number(), total_documents: z.number(), total_appointments: z.number(), total_folders: z.number() }),
  recent_users: z.array(userOutput),
  recent_documents: z.array(adminDocument),
});
const health = z.object({ status: z.literal("ok") });
const pageQuery = listPageInput.extend({ offset: z.coerce.number().int().min(0).optional() });
const uploadForm = z.object({ file: z.string().meta({ format: "binary" }), folder_id: idSchema.optional() });
const redirect = { description: "Redirect (302) of the browser", status: 302 } as const;

export const OPERATIONS: Operation[] = [
  { method: "get", path: "/health", summary: "Health check (database reachable)", tag: "system", access: "public", response: health },
  { method: "get", path: "/openapi.json", summary: "This document", tag: "system", access: "public", response: { description: "OpenAPI 3.1 document" } },

  { method: "post", path: "/auth/register", summary: "Register a client account", tag: "auth", access: "public", body: registerInput, response: success },
  { method: "post", path: "/auth/login", summary: "Log in (client portal)", tag: "auth", access: "public", body: loginInput, response: loginResult },
  { method: "post", path: "/auth/logout", summary: "Log out: ends the session", tag: "auth", access: "public", response: success },
  { method: "get", path: "/auth/me", summary: "The signed-in user", tag: "auth", access: "client", response: userOutput },
  { method: "post", path: "/auth/profile", summary: "Exchange the one-time id from the Google callback for a session", tag: "auth", access: "public", body: profileInput, response: success },
  { method: "post", path: "/auth/forgot-password", summary: "Email a password reset link (always answers success)", tag: "auth", access: "public", body: forgotPasswordInput, response: success },
  { method: "post", path: "/auth/reset-password", summary: "Set a new password with a reset token", tag: "auth", access: "public", body: resetPasswordInput, response: success },
  { method: "post", path: "/auth/verify-email", summary: "Verify the email address with the token from the verification link", tag: "auth", access: "public", body: verifyEmailInput, response: success },
  { method: "post", path: "/auth/resend-verification", summary: "Email a new verification link to the caller's address", tag: "auth", access: "client", response: success },
  { method: "get", path: "/auth/google", summary: "Start Google sign-in (browser navigation)", tag: "auth", access: "public", response: redirect },
  { method: "get", path: "/auth/google/callback", summary: "Google sign-in callback (browser navigation)", tag: "auth", access: "public", response: redirect },

  { method: "get", path: "/folders", summary: "The caller's folders", tag: "folders", access: "client", response: z.array(folderOutput) },
  { method: "post", path: "/folders", summary: "Create a folder", tag: "folders", access: "client", body: createFolderInput, response: folderOutput, status: 201 },
  { method: "delete", path: "/folders/:id", summary: "Delete an empty folder", tag: "folders", access: "client", response: success },

  { method: "get", path: "/documents/root", summary: "Documents in the root", tag: "documents", access: "client", response: z.array(documentOutput) },
  { method: "get", path: "/documents/usage", summary: "Bytes the caller's documents take, and the caller's quota", tag: "documents", access: "client", response: storageUsageOutput },
  { method: "get", path: "/documents/folder/:folder_id", summary: "Documents in a folder", tag: "documents", access: "client", response: z.array(documentOutput) },
  { method: "post", path: "/documents/upload", summary: "Upload one file (at most 10MB, within the storage quota: 413 \"Storage quota exceeded\"; at most 200 an hour: 429)", tag: "documents", access: "client", body: { multipart: uploadForm }, response: documentOutput, status: 201 },
  { method: "get", path: "/documents/:id/download", summary: "Download one of the caller's documents", tag: "documents", access: "client", response: { description: "The file, as an attachment", contentType: "application/octet-stream" } },
  { method: "delete", path: "/documents/:id", summary: "Delete a document", tag: "documents", access: "client", response: success },

  { method: "get", path: "/appointments", summary: "The caller's appointments, upcoming first", tag: "appointments", access: "client", response: z.array(appointmentOutput) },
  { method: "post", path: "/appointments", summary: "Request an appointment", tag: "appointments", access: "client", body: requestAppointmentInput, response: appointmentOutput, status: 201 },

  { method: "post", path: "/consultation/request", summary: "Request a consultation", tag: "public site", access: "public", body: consultationRequestInput, response: success },
  { method: "get", path: "/site-content", summary: "Site content for the landing page (stored over defaults)", tag: "public site", access: "public", response: siteContent },

  { method: "post", path: "/admin/login", summary: "Log in (admin portal)", tag: "admin", access: "public", body: loginInput, response: loginResult },
  { method: "get", path: "/admin/stats", summary: "Counts and recent users and documents", tag: "admin", access: "admin", response: adminStats },
  { method: "get", path: "/admin/users", summary: "Users, newest first", tag: "admin", access: "admin", query: pageQuery, paged: true, response: z.array(adminUser) },
  { method: "patch", path: "/admin/users/:id/quota", summary: "Set a client's storage quota in MB (null: the default)", tag: "admin", access: "admin", body: setUserQuotaInput.omit({ id: true }), response: userStorage.extend({ id: z.string() }) },
  { method: "delete", path: "/admin/users/:id", summary: "Delete a non-admin user and all their data", tag: "admin", access: "admin", response: success },
  { method: "get", path: "/admin/documents", summary: "Every user's documents", tag: "admin", access: "admin", query: pageQuery, paged: true, response: z.array(adminDocument) },
  { method: "get", path: "/admin/documents/:id/download", summary: "Download any document", tag: "admin", access: "admin", response: { description: "The file, as an attachment", contentType: "application/octet-stream" } },
  { method: "delete", path: "/admin/documents/:id", summary: "Delete any document", tag: "admin", access: "admin", response: success },
  { method: "get", path: "/admin/site-content", summary: "Stored site content (empty until initialized)", tag: "admin", access: "admin", response: siteContent },
  { method: "put", path: "/admin/site-content/:section/:key", summary: "Update one site content value", tag: "admin", access: "admin", body: z.object({ value: updateSiteContentInput.shape.value }), response: success },
  { method: "post", path: "/admin/init-site-content", summary: "Store the defaults for every key not stored yet", tag: "admin", access: "admin", response: success },
  { method: "put", path: "/admin/testimonials", summary: "Replace the testimonials list", tag: "admin", access: "admin", body: updateTestimonialsInput, response: success },
  { method: "get", path: "/admin/consultations", summary: "Consultation requests, newest first", tag: "admin", access: "admin", query: pageQuery, paged: true, response: z.array(consultationRequest) },
  { method: "put", path: "/admin/consultations/:id", summary: "Mark a consultation request handled (or not)", tag: "admin", access: "admin", body: z.object({ handled: z.boolean().default(true) }), response: success },
  { method: "get", path: "/admin/appointments", summary: "Every client's appointments", tag: "admin", access: "admin", query: appointmentListInput.extend({ offset: z.coerce.number().int().min(0).optional() }), paged: true, response: z.array(adminAppointment) },
  { method: "post", path: "/admin/appointments", summary: "Create an appointment for a client", tag: "admin", access: "admin", body: createAppointmentInput, response: adminAppointment, status: 201 },
  { method: "patch", path: "/admin/appointments/:id", summary: "Reschedule or change the status of an appointment", tag: "admin", access: "admin", body: updateAppointmentInput.omit({ id: true }), response: adminAppointment },
];

const PATH_PARAMS: Record<string, z.ZodType> = {
  id: idSchema,
  folder_id: idSchema,
  section: z.enum(SITE_SECTIONS),
  key: z.string(),
};

function jsonSchema(schema: z.ZodType, io: "input" | "output") {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    // Dates travel as ISO 8601 strings in JSON.
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema._zod.def.type === "date") Object.assign(jsonSchema, { type: "string", format: "date-time" });
    },
  });
  return rest;
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

function describeOperation(op: Operation) {
  const parameters = [
    ...[...op.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
      name,
      in: "path",
      required: true,
      schema: jsonSchema(PATH_PARAMS[name!] ?? z.string(), "input"),
    })),
    ...Object.entries(op.query?.shape ?? {}).map(([name, schema]) => ({
      name,
      in: "query",
      required: false,
      schema: jsonSchema(schema as z.ZodType, "input"),
    })),
  ];
  const requestBody = op.body
    ? "multipart" in op.body
      ? { required: true, content: { "multipart/form-data": { schema: jsonSchema(op.body.multipart, "input") } } }
      : { required: true, content: { "application/json": { schema: jsonSchema(op.body, "input") } } }
    : undefined;
  const reply = op.response instanceof z.ZodType ? null : op.response;
  const okStatus = String(reply?.status ?? op.status ?? 200);
  const ok = reply
    ? { description: reply.description, ...(reply.contentType ? { content: { [reply.contentType]: { schema: { type: "string", format: "binary" } } } } : {}) }
    : {
        description: "Success",
        ...(op.paged
          ? { headers: { "X-Total-Count": { schema: { type: "integer" }, description: "Items matching, over all pages" }, "X-Next-Cursor": { schema: { type: "integer" }, description: "cursor of the next page, absent on the last" } } }
          : {}),
        content: { "application/json": { schema: jsonSchema(op.response as z.ZodType, "output") } },
      };
  const responses: Record<string, unknown> = { [okStatus]: ok };
  if (op.body || parameters.length > 0) responses["422"] = errorResponse("Invalid input");
  if (op.access !== "public") responses["401"] = errorResponse("Not signed in");
  if (op.access === "admin") responses["403"] = errorResponse("Admin access required");
  if (op.path.includes(":")) responses["404"] = errorResponse("Not found (or not yours)");
  return {
    operationId: `${op.method}${op.path.replace(/[/:.-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
    summary: op.summary,
    tags: [op.tag],
    ...(op.access === "public" ? { security: [] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

export function buildOpenApiDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const path = op.path.replace(/:(\w+)/g, "{$1}");
    (paths[path] ??= {})[op.method] = describeOperation(op);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Client portal API",
      version: "1.0.0",
      description:
        "REST paths of the website and client portal. Errors are JSON `{ detail }`. Non-GET requests from browsers must be same-origin; a login with `\"return_token\": true` answers a `session_token`, which may be sent as `Authorization: Bearer` instead of the cookie.",
    },
    servers: [{ url: new URL("/api", serverUrl).href }],
    security: [{ sessionCookie: [] }, { bearer: [] }],
    tags: [...new Set(OPERATIONS.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: "session" },
        bearer: { type: "http", scheme: "bearer" },
      },
      schemas: {
        Error: { type: "object", properties: { detail: { type: "string" } }, required: ["detail"] },
      },
    },
  };
}

export function openApiRoutes(api: Router, deps: AppDeps): void {
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  const serve: RequestHandler = (_req, res) => {
    document ??= buildOpenApiDocument(deps.config.publicUrl);
    res.json(document);
  };
  api.get("/openapi.json", serve);
}
