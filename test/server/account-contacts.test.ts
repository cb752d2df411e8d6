// An account's people, by its own contacts (issue 32, "For the client"): an owner invites another
// person by an emailed single-use link (a new person signs up into the account, a person who already
// uses the portal joins it while signed in), lists the account's people and removes members; a
// member may list but gets 403 on the changes; the account never loses its last owner; removal ends
// the person's access on their next request; invitations are rate-limited and leave trail entries.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CONTACT_INVITATIONS_PER_USER_PER_HOUR } from "../../server/auth/rate-limit.ts";
import { createUser, DEFAULT_PASSWORD, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { linkToken, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let server: TestServer;
let smtp: TestSmtpServer;
let mariaUser: UserFixture;
let maria: ApiClient;

const uniqueEmail = (what: string) => `${what}.${randomBytes(4).toString("hex")}@example.com`;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  mariaUser = await verified(await createUser(server.db, { name: "Maria Garcia" }));
  maria = await loginClient(server.url, mariaUser);
  await server.db.updateTable("accounts").set({ name: "Garcia household", kind: "household" }).where("id", "=", mariaUser.id).execute();
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

/** Only an owner whose address is proven may invite (docs/security.md, Round 4). */
async function verified(user: UserFixture): Promise<UserFixture> {
  await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
  return user;
}

async function invite(client: ApiClient, name: string, email: string): Promise<string> {
  const res = await client.post("/api/account/contacts", { name, email });
  expect(res.status, res.text).toBe(201);
  expect(res.body).toEqual({ user_id: null, name, email, role: "member", household_role: null, status: "invited", since: expect.any(String) });
  const mail = await smtp.waitForMail(email, /join/i);
  return linkToken(mail, "invite");
}

async function trail(action: string, accountId: string) {
  return server.db
    .selectFrom("activity_events")
    .select(["actor_id", "actor_label", "detail", "client_label"])
    .where("action", "=", action)
    .where("account_id", "=", accountId)
    .execute();
}

describe("an owner invites a new person", () => {
  it("mails a link naming the account; signing up with it joins the account as a member", async () => {
    const email = uniqueEmail("james");
    const token = await invite(maria, "James Garcia", email);
    const mail = smtp.messages.find((m) => m.to.includes(email))!;
    // Nothing the inviter typed: the firm's words and the inviter's proven address (docs/security.md, Round 4).
    expect(mail.subject).toMatch(/^You are invited to join a client account at /);
    expect(mail.text).toContain(`${mariaUser.email}, a client of `);
    expect(`${mail.subject}${mail.text}`).not.toMatch(/Maria Garcia|James Garcia|Garcia household/);

    const listed = await maria.get("/api/account/contacts");
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      {
        user_id: mariaUser.id,
        name: "Maria Garcia",
        email: mariaUser.email,
        role: "owner",
        household_role: null,
        status: "joined",
        since: expect.any(String),
      },
      { user_id: null, name: "James Garcia", email, role: "member", household_role: null, status: "invited", since: expect.any(String) },
    ]);
    expect(await trail("invitation.create", mariaUser.id)).toEqual([
      expect.objectContaining({ actor_id: mariaUser.id, client_label: "Garcia household", detail: { name: "James Garcia", email } }),
    ]);

    const visitor = new ApiClient(server.url);
    const peek = await visitor.post("/api/auth/invitations/check", { token });
    expect(peek.status, peek.text).toBe(200);
    expect(peek.body).toMatchObject({ name: "James Garcia", email, for_staff: false, account_name: "Garcia household" });
    const accepted = await visitor.post("/api/auth/invitations/accept", {
      token,
      username: `james_${randomBytes(3).toString("hex")}`,
      name: "James Garcia",
      password: DEFAULT_PASSWORD,
    });
    expect(accepted.status, accepted.text).toBe(201);
    expect((await visitor.get("/api/accounts")).body).toEqual([{ id: mariaUser.id, name: "Garcia household", kind: "household", role: "member" }]);
    const people = (await maria.get("/api/account/contacts")).body as { name: string; status: string; role: string }[];
    expect(people.map((p) => [p.name, p.role, p.status])).toEqual([
      ["Maria Garcia", "owner", "joined"],
      ["James Garcia", "member", "joined"],
    ]);
  });

  it("refuses a second invitation to the same address, and a person already in the account", async () => {
    const email = uniqueEmail("twice");
    await invite(maria, "Twice Invited", email);
    const again = await maria.post("/api/account/contacts", { name: "Twice Invited", email: email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: "This email already has a pending invitation" });
    const self = await maria.post("/api/account/contacts", { name: "Maria", email: mariaUser.email });
    expect(self.status).toBe(409);
    expect(self.body).toEqual({ detail: "This person is already in this account" });
  });

  it("answers bad input with a 4xx, never a 5xx", async () => {
    for (const body of [
      {},
      { name: "No email" },
      { name: "", email: uniqueEmail("x") },
      { name: "Bad", email: "not-an-email" },
      { name: "x".repeat(101), email: uniqueEmail("long") },
    ]) {
      const res = await maria.post("/api/account/contacts", body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
    }
    expect((await maria.request("DELETE", "/api/account/contacts/not-a-uuid")).status).toBe(422);
    const unknown = await maria.request("DELETE", `/api/account/contacts/${(await createUser(server.db)).id}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: "Person not found in this account" });
    expect((await new ApiClient(server.url).get("/api/account/contacts")).status).toBe(401);
  });
});

describe("a person who already uses the portal", () => {
  it("joins while signed in: the account is added to their accounts list and becomes current; the link works once", async () => {
    const ana = await createUser(server.db, { name: "Ana Lopez" });
    const token = await invite(maria, "Ana Lopez", ana.email);
    const client = await loginClient(server.url, ana);
    const joined = await client.post("/api/accounts/join", { token });
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body).toEqual({ id: mariaUser.id, name: "Garcia household", kind: "household", role: "member" });
    expect((await client.get("/api/accounts")).body).toEqual([
      { id: ana.id, name: ana.username, kind: "individual", role: "owner" },
      { id: mariaUser.id, name: "Garcia household", kind: "household", role: "member" },
    ]);
    // Current now: its people are what the caller's contacts list shows.
    const people = (await client.get("/api/account/contacts")).body as { name: string }[];
    expect(people.map((p) => p.name)).toEqual(expect.arrayContaining(["Maria Garcia", "Ana Lopez"]));
    const again = await client.post("/api/accounts/join", { token });
    expect(again.status).toBe(409);
    expect(await trail("invitation.accept", mariaUser.id)).toEqual(
      expect.arrayContaining([expect.objectContaining({ actor_id: ana.id, detail: { email: ana.email } })]),
    );
  });

  it("is refused when the invitation is for another address, and a bad token is a 404", async () => {
    const email = uniqueEmail("other");
    const token = await invite(maria, "Someone Else", email);
    const stranger = await loginClient(server.url, await createUser(server.db));
    const refused = await stranger.post("/api/accounts/join", { token });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/another email address/);
    expect((await stranger.get("/api/accounts")).body).toHaveLength(1);
    expect((await stranger.post("/api/accounts/join", { token: "nosuchtoken" })).status).toBe(404);
    expect((await stranger.post("/api/accounts/join", {})).status).toBe(422);
    expect((await new ApiClient(server.url).post("/api/accounts/join", { token })).status).toBe(401);
  });
});

describe("members and owners", () => {
  let member: UserFixture;
  let memberApi: ApiClient;

  beforeAll(async () => {
    member = await createUser(server.db, { name: "Bookkeeper Bob" });
    await server.db.insertInto("account_contacts").values({ account_id: mariaUser.id, user_id: member.id, role: "member" }).execute();
    memberApi = await loginClient(server.url, member);
    expect((await memberApi.post("/api/accounts/switch", { account_id: mariaUser.id })).status).toBe(200);
  });

  it("a member lists the account's people but gets 403 on every change", async () => {
    const list = await memberApi.get("/api/account/contacts");
    expect(list.status).toBe(200);
    expect(list.body.map((p: { name: string }) => p.name)).toContain("Maria Garcia");
    const invited = await memberApi.post("/api/account/contacts", { name: "Friend", email: uniqueEmail("friend") });
    expect(invited.status).toBe(403);
    expect(invited.body).toEqual({ detail: "Only an owner of this account can change its people" });
    expect((await memberApi.request("DELETE", `/api/account/contacts/${mariaUser.id}`)).status).toBe(403);
    expect((await maria.get("/api/account/contacts")).body.map((p: { name: string }) => p.name)).toContain("Maria Garcia");
  });

  it("the only owner cannot remove themselves", async () => {
    const res = await maria.request("DELETE", `/api/account/contacts/${mariaUser.id}`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: "An account needs an owner: you are its only one" });
  });

  it("an owner removes a member: the member's next request reaches nothing of the account", async () => {
    const form = new FormData();
    form.append("file", new Blob([new TextEncoder().encode("w2")], { type: "text/plain" }), "Maria W-2.txt");
    expect((await maria.request("POST", "/api/documents/upload", { body: form })).status).toBe(201);
    const before = (await memberApi.get("/api/documents/root")).body as { original_filename: string }[];
    expect(before.map((d) => d.original_filename)).toContain("Maria W-2.txt");

    const removed = await maria.request("DELETE", `/api/account/contacts/${member.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual({ success: true });
    expect((await memberApi.get("/api/accounts")).body).toEqual([{ id: member.id, name: member.username, kind: "individual", role: "owner" }]);
    const after = (await memberApi.get("/api/documents/root")).body as { original_filename: string }[];
    expect(after.map((d) => d.original_filename)).not.toContain("Maria W-2.txt");
    expect((await memberApi.post("/api/accounts/switch", { account_id: mariaUser.id })).status).toBe(404);
    expect((await maria.get("/api/account/contacts")).body.map((p: { user_id: string }) => p.user_id)).not.toContain(member.id);
    expect(await trail("account.contact_remove", mariaUser.id)).toEqual([
      expect.objectContaining({ actor_id: mariaUser.id, detail: { name: "Bookkeeper Bob", email: member.email } }),
    ]);
  });

  it("an owner may remove another owner, never the last", async () => {
    const second = await createUser(server.db, { name: "Second Owner" });
    const account = await createUser(server.db, { name: "Solo Owner" });
    await server.db.insertInto("account_contacts").values({ account_id: account.id, user_id: second.id, role: "owner" }).execute();
    const secondApi = await loginClient(server.url, second);
    expect((await secondApi.post("/api/accounts/switch", { account_id: account.id })).status).toBe(200);
    expect((await secondApi.request("DELETE", `/api/account/contacts/${account.id}`)).status).toBe(200);
    const last = await secondApi.request("DELETE", `/api/account/contacts/${second.id}`);
    expect(last.status).toBe(409);
  });
});

describe("the invitation limit", () => {
  it(`refuses an owner's invitation over ${MAX_CONTACT_INVITATIONS_PER_USER_PER_HOUR} an hour with a 429`, async () => {
    const owner = await loginClient(server.url, await verified(await createUser(server.db)));
    for (let i = 0; i < MAX_CONTACT_INVITATIONS_PER_USER_PER_HOUR; i++) {
      const res = await owner.post("/api/account/contacts", { name: `Person ${i}`, email: uniqueEmail(`limit${i}`) });
      expect(res.status, res.text).toBe(201);
    }
    const over = await owner.post("/api/account/contacts", { name: "One Too Many", email: uniqueEmail("over") });
    expect(over.status).toBe(429);
    expect(over.body.detail).toMatch(/^Too many invitations\./);
  });
});

describe("who did what, as the account's people see it", () => {
  it("documents carry their uploader's name, or From your firm; messages their writer", async () => {
    const owner = await createUser(server.db, { name: "Lena Park" });
    const spouse = await createUser(server.db, { name: "Sam Park" });
    await server.db.insertInto("account_contacts").values({ account_id: owner.id, user_id: spouse.id, role: "member" }).execute();
    const ownerApi = await loginClient(server.url, owner);
    const spouseApi = await loginClient(server.url, spouse);
    expect((await spouseApi.post("/api/accounts/switch", { account_id: owner.id })).status).toBe(200);
    const admin = await loginClient(server.url, await createUser(server.db, { is_admin: true, name: "Firm Person" }), "admin");

    const upload = async (client: ApiClient, path: string, filename: string) => {
      const form = new FormData();
      form.append("file", new Blob([new TextEncoder().encode(filename)], { type: "text/plain" }), filename);
      const res = await client.request("POST", path, { body: form });
      expect(res.status, res.text).toBe(201);
    };
    await upload(spouseApi, "/api/documents/upload", "Sam W-2.txt");
    await upload(ownerApi, "/api/documents/upload", "Lena 1099.txt");
    await upload(admin, `/api/admin/users/${owner.id}/documents`, "Draft return.txt");
    const listed = (await ownerApi.get("/api/documents/root")).body as {
      original_filename: string;
      uploaded_by_name: string | null;
      from_firm: boolean;
    }[];
    const byName = Object.fromEntries(listed.map((d) => [d.original_filename, [d.uploaded_by_name, d.from_firm]]));
    expect(byName).toEqual({
      "Sam W-2.txt": ["Sam Park", false],
      "Lena 1099.txt": ["Lena Park", false],
      "Draft return.txt": ["From your firm", true],
    });

    expect((await spouseApi.post("/api/messages", { text: "Uploaded my W-2" })).status).toBe(201);
    const messages = (await ownerApi.get("/api/messages")).body as { text: string; sender_name: string; sender_id: string; sender_role: string }[];
    expect(messages.at(-1)).toMatchObject({ text: "Uploaded my W-2", sender_role: "client", sender_name: "Sam Park", sender_id: spouse.id });

    // The trail names the other person by their name; the viewer's own entries stay theirs.
    const trailItems = (await ownerApi.get("/api/activity")).body.items as {
      action: string;
      actor_label: string;
      by_you?: boolean;
      detail: { filename?: string };
    }[];
    const uploads = trailItems.filter((e) => e.action === "document.upload");
    expect(uploads.find((e) => e.detail.filename === "Sam W-2.txt")).toMatchObject({ actor_label: "Sam Park", by_you: false });
    expect(uploads.find((e) => e.detail.filename === "Lena 1099.txt")?.by_you).toBeUndefined();
  });
});
