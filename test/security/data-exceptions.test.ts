// Values zod lets through but Postgres refuses as a "data exception" (SQLSTATE class 22): a NUL
// character in text, a date in year 0. They are the client's mistake, so a 4xx with a detail, never 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, DEFAULT_PASSWORD, loginClient } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const INVALID_VALUE = "Invalid input: text must not contain NUL characters and dates must be real calendar dates";

let server: TestServer;
let client: ApiClient;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  client = await loginClient(server.url, await createUser(server.db));
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
});
afterAll(() => server.close());

async function count(table: "users" | "folders" | "consultation_requests"): Promise<number> {
  const row = await server.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("Postgres data exceptions answer 422", () => {
  it("a NUL character in a login name", async () => {
    const res = await new ApiClient(server.url).post("/api/auth/login", { username: "a\u0000b", password: DEFAULT_PASSWORD });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: INVALID_VALUE });
  });

  it("a NUL character in a registration's name, storing nothing", async () => {
    const before = await count("users");
    const res = await new ApiClient(server.url).post("/api/auth/register", {
      username: "nul_name",
      email: "nul.name@example.com",
      name: "Nu\u0000ll",
      password: "Velvet-Compass-Orchard-7",
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: INVALID_VALUE });
    expect(await count("users")).toBe(before);
  });

  it("a NUL character in a folder name", async () => {
    const before = await count("folders");
    const res = await client.post("/api/folders", { name: "Taxes\u00002025" });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: INVALID_VALUE });
    expect(await count("folders")).toBe(before);
  });

  it("a NUL character in an admin search", async () => {
    for (const list of ["users", "documents", "consultations", "appointments"]) {
      const res = await admin.get(`/api/admin/${list}?q=${encodeURIComponent("a\u0000b")}`);
      expect(res.status, list).toBe(422);
      expect(res.body, list).toEqual({ detail: INVALID_VALUE });
    }
  });

  it("a consultation's preferred date in year 0, storing nothing", async () => {
    const before = await count("consultation_requests");
    const res = await new ApiClient(server.url).post("/api/consultation/request", {
      name: "Zero Year",
      email: "zero@example.com",
      phone: "555-123-4567",
      preferredDate: "0000-01-01",
    });
    // Refused before Postgres sees it now: a date before today is not a date to consult on.
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: "Please choose a date from today on" });
    expect(await count("consultation_requests")).toBe(before);
  });

  it("the same over tRPC, as BAD_REQUEST", async () => {
    const res = await client.request("POST", "/trpc/folders.create", {
      body: JSON.stringify({ json: { name: "a\u0000b" } }),
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.json.message).toBe(INVALID_VALUE);
    expect(res.body.error.json.data.code).toBe("BAD_REQUEST");
  });
});
