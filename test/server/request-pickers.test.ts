/*
 * What the firm's pickers stand on (issue 48; docs/decisions.md, "The firm's paths take the
 * account"): a search for one person of a household finds the account once, with all its people;
 * a document request sent by account_id belongs to the account, which each of its people opens.
 * The specification's user_id form keeps working for a person of one account.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createUser, loginClient, makeHousehold, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let firm: ApiClient;
let maria: UserFixture;
let jose: UserFixture;

beforeAll(async () => {
  server = await startTestServer();
  firm = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
  maria = await createUser(server.db, { name: "Maria Garcia" });
  jose = await createUser(server.db, { name: "Jose Garcia" });
  await makeHousehold(server.db, { owner: maria, member: jose, name: "Garcia household", verifiedAt: new Date() });
});
afterAll(() => server.close());

it("a person's name finds their account once, naming all its people", async () => {
  const found = await firm.get("/api/admin/accounts?q=Jose");
  expect(found.status).toBe(200);
  const items = found.body as Array<{ id: string; name: string; contacts: Array<{ name: string }> }>;
  expect(items.map((a) => [a.id, a.name, a.contacts.map((c) => c.name)])).toEqual([[maria.id, "Garcia household", ["Maria Garcia", "Jose Garcia"]]]);
});

it("a request sent to the account reaches each of its people", async () => {
  const sent = await firm.post("/api/admin/requests", { account_id: maria.id, title: "2026 W-2s" });
  expect(sent.status, sent.text).toBe(201);
  for (const person of [maria, jose]) {
    const api = await loginClient(server.url, person);
    const titles = ((await api.get("/api/requests")).body as Array<{ title: string }>).map((r) => r.title);
    expect(titles).toContain("2026 W-2s");
  }
  // The specification's form: a person's id names their one account.
  expect((await firm.post("/api/admin/requests", { user_id: jose.id, title: "1099-INT" })).status).toBe(201);
  const rows = await server.db.selectFrom("document_requests").select(["title", "account_id"]).orderBy("title").execute();
  expect(rows).toEqual([
    { title: "1099-INT", account_id: maria.id },
    { title: "2026 W-2s", account_id: maria.id },
  ]);
});
