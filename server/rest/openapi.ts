// The OpenAPI 3.1 document of the REST paths under /api, written from the route table (route.ts):
// the same entries register the Express routes, and their zod schemas (zod 4's JSON Schema output,
// the dialect OpenAPI 3.1 uses) are the ones the procedures validate with.
// test/server/openapi.test.ts checks real answers against the documented schemas.
import { z } from "zod";
import { PATH_PARAMS, type RestRoute, successStatus } from "./route.ts";

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

const PATH_SCHEMAS: Record<string, z.ZodType> = PATH_PARAMS;

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

function describeOperation(op: RestRoute) {
  const parameters = [
    ...[...op.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
      name,
      in: "path",
      required: true,
      schema: jsonSchema(PATH_SCHEMAS[name!] ?? z.string(), "input"),
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
      ? {
          required: true,
          content: {
            ...(op.body.json ? { "application/json": { schema: jsonSchema(op.body.json, "input") } } : {}),
            "multipart/form-data": { schema: jsonSchema(op.body.multipart, "input") },
          },
        }
      : { required: true, content: { "application/json": { schema: jsonSchema(op.body, "input") } } }
    : undefined;
  const reply = op.response instanceof z.ZodType ? null : op.response;
  const okStatus = String(successStatus(op));
  const ok = reply
    ? {
        description: reply.description,
        ...(reply.contentType ? { content: { [reply.contentType]: { schema: { type: "string", format: "binary" } } } } : {}),
      }
    : {
        description: "Success",
        ...("paged" in op && op.paged
          ? {
              headers: {
                "X-Total-Count": { schema: { type: "integer" }, description: "Items matching, over all pages" },
                "X-Total-Capped": {
                  schema: { type: "string", enum: ["true"] },
                  description: "Present when the search matched more than were counted: X-Total-Count is then a lower bound",
                },
                "X-Next-Cursor": { schema: { type: "integer" }, description: "cursor of the next page, absent on the last" },
              },
            }
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

export function buildOpenApiDocument(routes: readonly RestRoute[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of routes) {
    const path = op.path.replace(/:(\w+)/g, "{$1}");
    (paths[path] ??= {})[op.method] = describeOperation(op);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Client portal API",
      version: "1.0.0",
      description:
        "REST paths of the website and client portal. Errors are JSON `{ detail }`. Non-GET requests from browsers must be same-origin. " +
        "Every call that finishes a sign-in (`/auth/login`, `/admin/login`, `/auth/login/2fa`, `/auth/login/2fa/enable`, `/auth/passkey/login`, `/auth/invitations/accept`) answers `success`, `session_token` and `user` and sets the session cookie; " +
        "an account with a second factor first gets a `challenge`. The token may be sent as `Authorization: Bearer` instead of the cookie. " +
        '`"return_token"` is still accepted and changes nothing. `/auth/change-password` answers the new session\'s `session_token`.',
    },
    servers: [{ url: new URL("/api", serverUrl).href }],
    security: [{ sessionCookie: [] }, { bearer: [] }],
    tags: [...new Set(routes.map((op) => op.tag))].map((name) => ({ name })),
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
