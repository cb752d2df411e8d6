import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../../server/app.ts";
import { REST_ROUTES } from "../../server/rest/routes.ts";
import { checkApiResponse } from "../helpers/response-contract.ts";
import { ApiClient, type Json } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let doc: Json;

beforeAll(async () => {
  server = await startTestServer();
  const res = await new ApiClient(server.url).get("/api/openapi.json");
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => server.close());

type RouteLayer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: RouteLayer[] }; name?: string };

/** "METHOD /path" of every route Express serves under /api, read from the real app's router. */
function servedApiRoutes(): string[] {
  const app = createApp(server.deps) as unknown as { router: { stack: RouteLayer[] } };
  const apiRouter = app.router.stack.find((layer) => layer.handle?.stack?.some((l) => l.route?.path === "/auth/login"));
  if (!apiRouter?.handle?.stack) throw new Error("the /api router was not found in the app");
  return apiRouter.handle.stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods)
          .filter((m) => m !== "_all" && m !== "head")
          .map((m) => `${m.toUpperCase()} ${layer.route!.path.replace(/:(\w+)/g, "{$1}")}`)
      : [],
  );
}

function documentedRoutes(): string[] {
  return Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
  );
}

// The REST paths the product description lists, all under /api.
const PRODUCT_REST_PATHS = [
  "GET /auth/me",
  "POST /auth/login",
  "POST /auth/register",
  "POST /auth/logout",
  "POST /auth/profile",
  "POST /auth/forgot-password",
  "POST /auth/reset-password",
  "POST /consultation/request",
  "GET /folders",
  "POST /folders",
  "DELETE /folders/{id}",
  "GET /documents/root",
  "GET /documents/folder/{folder_id}",
  "POST /documents/upload",
  "DELETE /documents/{id}",
  "GET /appointments",
  "POST /admin/login",
  "GET /admin/stats",
  "GET /admin/users",
  "GET /admin/documents",
  "GET /admin/site-content",
  "PUT /admin/site-content/{section}/{key}",
  "POST /admin/init-site-content",
  "PUT /admin/testimonials",
  "DELETE /admin/users/{id}",
  "DELETE /admin/documents/{id}",
];

describe("GET /api/openapi.json", () => {
  it("is an OpenAPI 3.1 document served from /api", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: `${server.url}/api` }]);
    expect(doc.info.title).toBeTruthy();
  });

  it("lists every path the product description names", () => {
    expect(documentedRoutes()).toEqual(expect.arrayContaining(PRODUCT_REST_PATHS));
  });

  it("documents exactly the routes Express serves", () => {
    expect(documentedRoutes().sort()).toEqual(servedApiRoutes().sort());
  });

  it("describes request bodies with the procedures' own zod schemas", () => {
    const consultation = doc.paths["/consultation/request"].post.requestBody.content["application/json"].schema;
    expect(consultation.required).toEqual(["name", "email", "phone"]);
    // The choices are the firm's (site content services.list; the specification's six by default), so
    // the schema gives their form and names the defaults; the server checks the list as it stands.
    expect(consultation.properties.service).toMatchObject({ type: "string", pattern: "^[a-z0-9][a-z0-9-]{0,39}$" });
    expect(consultation.properties.service.description).toContain("bookkeeping, tax-prep, notary, admin, consulting, other");
    expect(consultation.properties.preferredTime.enum).toEqual(["morning", "afternoon", "evening"]);
    expect(consultation.properties.message.maxLength).toBe(5000);

    const reset = doc.paths["/auth/reset-password"].post.requestBody.content["application/json"].schema;
    expect(reset.required.sort()).toEqual(["new_password", "token"]);
    expect(reset.properties.new_password.minLength).toBe(6);

    const upload = doc.paths["/documents/upload"].post.requestBody.content["multipart/form-data"].schema;
    expect(upload.properties.file.format).toBe("binary");

    const section = doc.paths["/admin/site-content/{section}/{key}"].put.parameters.find((p: { name: string }) => p.name === "section");
    expect(section.schema.enum).toEqual(["hero", "about", "contact", "company", "welcome", "testimonials", "services", "legal"]);
  });

  it("describes responses, with dates as date-time strings and admin lists' total header", () => {
    const me = doc.paths["/auth/me"].get.responses["200"].content["application/json"].schema;
    expect(me.properties.created_at).toEqual({ type: "string", format: "date-time" });
    expect(me.properties).not.toHaveProperty("password_hash");
    const users = doc.paths["/admin/users"].get;
    expect(users.responses["200"].headers).toHaveProperty("X-Total-Count");
    expect(users.parameters.map((p: { name: string }) => p.name).sort()).toEqual(["cursor", "limit", "offset", "q"]);
    expect(users.responses).toHaveProperty("403");
    expect(doc.paths["/consultation/request"].post.security).toEqual([]);
  });

  // Issue 29: a client generated from this document must find the token in every answer that
  // finishes a sign-in, as the specification's login answer has it.
  it("requires session_token in every answer that finishes a sign-in", () => {
    const signIns = [
      ["post", "/auth/login", "200"],
      ["post", "/admin/login", "200"],
      ["post", "/auth/login/2fa", "200"],
      ["post", "/auth/login/2fa/enable", "200"],
      ["post", "/auth/passkey/login", "200"],
      ["post", "/auth/invitations/accept", "201"],
      ["post", "/auth/change-password", "200"],
    ] as const;
    for (const [method, path, status] of signIns) {
      const schema = doc.paths[path][method].responses[status].content["application/json"].schema;
      const branches: Json[] = schema.anyOf ?? schema.oneOf ?? [schema];
      const signedIn = branches.filter((branch) => branch.properties?.success);
      expect(signedIn, path).toHaveLength(1);
      expect(signedIn[0].required, path).toContain("session_token");
    }
    expect(doc.info.description).toContain("is still accepted and changes nothing");
  });
});

describe("the route table", () => {
  it("gives every JSON route an output schema, and every other route a described reply", () => {
    const undocumented = REST_ROUTES.filter((route) => ("call" in route ? !(route.response instanceof z.ZodType) : !route.response)).map(
      (route) => `${route.method.toUpperCase()} ${route.path}`,
    );
    expect(undocumented).toEqual([]);
    for (const [path, methods] of Object.entries(
      doc.paths as Record<string, Record<string, { responses: Record<string, { content?: object; description: string }> }>>,
    )) {
      for (const [method, operation] of Object.entries(methods)) {
        const success = Object.entries(operation.responses).find(([status]) => status.startsWith("2") || status === "302");
        expect(success, `${method} ${path}`).toBeDefined();
        expect(success![1].description, `${method} ${path}`).toBeTruthy();
      }
    }
  });

  it("refuses an answer that does not match its documented schema (what every API test relies on)", () => {
    const me = new URL("/api/auth/me", server.url);
    const user = {
      id: "u",
      name: "n",
      email: "e@example.com",
      username: null,
      auth_provider: "local",
      created_at: new Date().toISOString(),
      is_admin: false,
      email_verified: true,
      language: "en",
    };
    expect(() => checkApiResponse("GET", me, 200, user)).not.toThrow();
    expect(() => checkApiResponse("GET", me, 200, { ...user, password_hash: "$argon2id$..." })).toThrow(/additional properties/);
    expect(() => checkApiResponse("GET", me, 200, { ...user, created_at: 5 })).toThrow(/created_at/);
    expect(() => checkApiResponse("GET", new URL("/api/folders", server.url), 200, [{ id: "f", name: "Taxes" }])).toThrow(/required/);
    expect(() => checkApiResponse("GET", me, 401, { message: "Not authenticated" })).toThrow(/detail/);
  });
});
