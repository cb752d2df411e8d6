/*
 * A household person's role (issue 48; docs/decisions.md, "A household person's role"): taxpayer,
 * spouse or dependent, set when the firm adds or invites a person and when an owner invites one,
 * changed by the firm or an owner, listed on both sides. Business (and individual) accounts keep
 * none: 422. A member who is not an owner cannot change it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, loginClient, makeHousehold, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const ONLY_HOUSEHOLDS = "Only a household account's people have a household role (taxpayer, spouse or dependent)";

let server: TestServer;
let firm: ApiClient;
let maria: UserFixture;
let jose: UserFixture;
let mariaApi: ApiClient;
let joseApi: ApiClient;

type Person = { user_id: string | null; email: string; household_role: string | null };

beforeAll(async () => {
  server = await startTestServer();
  firm = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
  maria = await createUser(server.db, { name: "Maria Garcia" });
  jose = await createUser(server.db, { name: "Jose Garcia" });
  await makeHousehold(server.db, { owner: maria, member: jose, name: "Garcia household", verifiedAt: new Date() });
  mariaApi = await loginClient(server.url, maria);
  joseApi = await loginClient(server.url, jose);
});
afterAll(() => server.close());

const rolesOf = (people: Person[]) => Object.fromEntries(people.map((p) => [p.email, p.household_role]));

describe("the firm", () => {
  it("sets the role when it adds a person, and changes it", async () => {
    const added = await firm.post(`/api/admin/accounts/${maria.id}/contacts`, {
      name: "Lucia Garcia",
      email: "lucia@example.com",
      household_role: "dependent",
    });
    expect(added.status, added.text).toBe(201);
    const set = await firm.patch(`/api/admin/accounts/${maria.id}/contacts/${jose.id}`, { household_role: "spouse" });
    expect(set.status, set.text).toBe(200);
    expect(await firm.patch(`/api/admin/accounts/${maria.id}/contacts/${maria.id}`, { household_role: "taxpayer" })).toMatchObject({ status: 200 });
    const account = await firm.get(`/api/admin/accounts/${maria.id}`);
    expect(rolesOf(account.body.contacts)).toEqual({ [maria.email]: "taxpayer", [jose.email]: "spouse", "lucia@example.com": "dependent" });
  });

  it("refuses a role in a business account, and a role that is not one of the three", async () => {
    const shop = await firm.post("/api/admin/accounts", { name: "Garcia Bakery LLC", kind: "business" });
    expect(shop.status, shop.text).toBe(201);
    const refused = await firm.post(`/api/admin/accounts/${shop.body.id}/contacts`, {
      name: "Bo Keeper",
      email: "bo@example.com",
      household_role: "spouse",
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ detail: ONLY_HOUSEHOLDS });
    const invited = await firm.post("/api/admin/invitations", {
      name: "Bo Keeper",
      email: "bo@example.com",
      account_id: shop.body.id,
      household_role: "dependent",
    });
    expect(invited.status).toBe(422);
    // Without a role, the business's person is added as before.
    expect((await firm.post(`/api/admin/accounts/${shop.body.id}/contacts`, { name: "Bo Keeper", email: "bo@example.com" })).status).toBe(201);
    expect((await firm.patch(`/api/admin/accounts/${maria.id}/contacts/${jose.id}`, { household_role: "grandparent" })).status).toBe(422);
  });
});

describe("the household's owner", () => {
  it("invites a person with a role, changes a person's role, and both see the roles", async () => {
    const invited = await mariaApi.post("/api/account/contacts", { name: "Ana Garcia", email: "ana@example.com", household_role: "dependent" });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body.household_role).toBe("dependent");
    const changed = await mariaApi.patch(`/api/account/contacts/${jose.id}`, { household_role: "taxpayer" });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ user_id: jose.id, household_role: "taxpayer" });
    const seen = await joseApi.get("/api/account/contacts");
    expect(rolesOf(seen.body)).toMatchObject({ [jose.email]: "taxpayer", "ana@example.com": "dependent" });
  });

  it("a member who does not own the account cannot change roles; a person of another account is not found", async () => {
    expect((await joseApi.patch(`/api/account/contacts/${maria.id}`, { household_role: "spouse" })).status).toBe(403);
    const stranger = await createUser(server.db);
    expect((await mariaApi.patch(`/api/account/contacts/${stranger.id}`, { household_role: "spouse" })).status).toBe(404);
  });

  it("an individual account's owner gets the same 422", async () => {
    const solo = await createUser(server.db);
    const soloApi = await loginClient(server.url, solo);
    const res = await soloApi.patch(`/api/account/contacts/${solo.id}`, { household_role: "taxpayer" });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: ONLY_HOUSEHOLDS });
  });
});

it("an account that stops being a household loses its people's roles", async () => {
  const changed = await firm.patch(`/api/admin/accounts/${maria.id}`, { kind: "business" });
  expect(changed.status, changed.text).toBe(200);
  expect(changed.body.contacts.map((c: Person) => c.household_role)).toEqual(changed.body.contacts.map(() => null));
  expect((await firm.patch(`/api/admin/accounts/${maria.id}`, { kind: "household" })).status).toBe(200);
});
