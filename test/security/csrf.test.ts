// Scorecard item 7: a state-changing request that a browser sent from another site is refused with
// 403 before any procedure runs, for JSON, form and multipart bodies, on tRPC and REST alike.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, loginClient } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let client: ApiClient;
let userId: string;

beforeAll(async () => {
  server = await startTestServer();
  const user = await createUser(server.db);
  userId = user.id;
  client = await loginClient(server.url, user);
});
afterAll(() => server.close());

const BODIES = {
  json: () => ({ body: JSON.stringify({ name: "Forged" }), type: "application/json" }),
  form: () => ({ body: "name=Forged", type: "application/x-www-form-urlencoded" }),
  multipart: () => {
    const form = new FormData();
    form.append("name", "Forged");
    form.append("file", new Blob(["forged"]), "forged.txt");
    return { body: form, type: undefined };
  },
};

const TARGETS = [
  ["POST", "/api/folders"],
  ["POST", "/api/documents/upload"],
  ["POST", "/api/auth/logout"],
  ["DELETE", "/api/folders/00000000-0000-4000-8000-000000000000"],
  ["PUT", "/api/admin/testimonials"],
  ["POST", "/trpc/folders.create"],
  ["POST", "/trpc/auth.logout"],
] as const;

const FOREIGN = [
  ["a foreign Origin", { Origin: "https://evil.example" }],
  ["a foreign Referer and no Origin", { Referer: "https://evil.example/page" }],
  ["no Origin or Referer at all", {}],
  ["Sec-Fetch-Site: cross-site (even with our own Origin)", { "Sec-Fetch-Site": "cross-site", Origin: "SELF" }],
  ["Sec-Fetch-Site: same-site (a sibling subdomain)", { "Sec-Fetch-Site": "same-site", Origin: "SELF" }],
] as const;

describe("cross-site requests carrying the session cookie", () => {
  for (const [what, headers] of FOREIGN) {
    it(`are refused with ${what}`, async () => {
      for (const [method, path] of TARGETS) {
        for (const [kind, make] of Object.entries(BODIES)) {
          const { body, type } = make();
          const sent: Record<string, string> = { ...headers };
          if (type) sent["Content-Type"] = type;
          const response = await withCookieOnly(client)(method, path, sent, body);
          const res = { status: response.status, body: await response.json() };
          expect({ path, kind, status: res.status, body: res.body }).toEqual({
            path,
            kind,
            status: 403,
            body: { detail: "Cross-site request refused" },
          });
        }
      }
      // Nothing ran: no folder, the session still works.
      const folders = await server.db.selectFrom("folders").select("id").where("account_id", "=", userId).execute();
      expect(folders).toEqual([]);
      expect((await client.get("/api/auth/me")).status).toBe(200);
    });
  }
});

/** Sends only the headers given plus the session cookie, as a forged cross-site request would. */
function withCookieOnly(c: ApiClient) {
  return (method: string, path: string, headers: Record<string, string>, body?: BodyInit) => {
    const sent = { ...headers };
    if (sent.Origin === "SELF") sent.Origin = c.baseUrl;
    return fetch(new URL(path, c.baseUrl), {
      method,
      body,
      headers: { ...sent, Cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
  };
}

describe("same-origin requests", () => {
  it("pass with Sec-Fetch-Site same-origin, or with our Origin", async () => {
    const send = withCookieOnly(client);
    const viaFetchMetadata = await send(
      "POST",
      "/api/folders",
      { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" },
      JSON.stringify({ name: "Mine 1" }),
    );
    expect(viaFetchMetadata.status).not.toBe(403);
    const viaOrigin = await send(
      "POST",
      "/api/folders",
      { "Content-Type": "application/json", Origin: server.url },
      JSON.stringify({ name: "Mine 2" }),
    );
    expect(viaOrigin.status).not.toBe(403);
  });

  it("a Bearer token without a cookie needs no Origin (it cannot be borrowed by another site)", async () => {
    const user = await createUser(server.db);
    const login = await (await loginClient(server.url, user)).post("/api/auth/login", { username: user.username, password: user.password });
    const res = await fetch(new URL("/api/folders", server.url), {
      method: "POST",
      headers: { Authorization: `Bearer ${login.body.session_token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "From a script" }),
    });
    expect(res.status).not.toBe(403);
  });

  it("GET never changes state, so it is not checked", async () => {
    const res = await client.get("/api/folders", { headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" } });
    expect(res.status).toBe(200);
  });
});
