// The firm's side of client accounts (issue 32, "For the firm"): accounts made before anyone joins
// them, their people (invited by an emailed link, or an existing client added at once), the rule
// that an account with people keeps an owner, the firm acting on a fresh account before its first
// sign-in, and the CSV import with its preview. Runs on Postgres and on the embedded database.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaffMember, createUser, DEFAULT_PASSWORD, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { linkToken, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let server: TestServer;
let smtp: TestSmtpServer;
let adminUser: UserFixture;
let admin: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  adminUser = await createUser(server.db, { is_admin: true });
  admin = await loginClient(server.url, adminUser, "admin");
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

const unique = (what: string) => `${what}.${randomBytes(4).toString("hex")}`;
const email = (what: string) => `${unique(what)}@example.com`;

async function newAccount(name: string, kind = "household") {
  const res = await admin.post("/api/admin/accounts", { name, kind });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; name: string; kind: string; contacts: unknown[] };
}

async function inviteToken(to: string): Promise<string> {
  return linkToken(await smtp.waitForMail(to, /invitation/i, 30_000), "invite");
}

async function accept(token: string, name: string) {
  const client = new ApiClient(server.url);
  const res = await client.post("/api/auth/invitations/accept", { token, username: unique("u").replace(".", "_"), name, password: DEFAULT_PASSWORD });
  expect(res.status, res.text).toBe(201);
  return { client, userId: res.body.user.id as string };
}

async function verifiedClient(name: string) {
  const user = await createUser(server.db, { name, email: email("client") });
  await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
  return user;
}

async function trail(action: string, accountId: string | null) {
  let q = server.db.selectFrom("activity_events").select(["actor_id", "actor_label", "client_label", "detail"]).where("action", "=", action);
  q = accountId ? q.where("account_id", "=", accountId) : q;
  return q.orderBy("occurred_at").execute();
}

describe("accounts", () => {
  it("creates an account with no people yet, answering 201 with its id, and records who did", async () => {
    const created = await newAccount("Garcia Household");
    expect(created).toMatchObject({ id: expect.any(String), name: "Garcia Household", kind: "household", contacts: [] });
    expect(await trail("account.create", created.id)).toEqual([
      expect.objectContaining({ actor_id: adminUser.id, client_label: "Garcia Household" }),
    ]);
    expect((await admin.get(`/api/admin/accounts/${created.id}`)).body).toMatchObject({ id: created.id, contacts: [] });
  });

  it("refuses bad input with a 4xx and a clear detail", async () => {
    expect((await admin.post("/api/admin/accounts", { name: "", kind: "household" })).status).toBe(422);
    const kind = await admin.post("/api/admin/accounts", { name: "X", kind: "family" });
    expect(kind.status).toBe(422);
    expect(kind.body.detail).toContain("kind must be individual, household or business");
    expect((await admin.post("/api/admin/accounts", { name: "x".repeat(201), kind: "business" })).status).toBe(422);
    expect((await admin.get("/api/admin/accounts/not-a-uuid")).status).toBe(422);
    const missing = await admin.get(`/api/admin/accounts/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: "Account not found" });
    const account = await newAccount("Patch Refusals");
    expect((await admin.patch(`/api/admin/accounts/${account.id}`, {})).body.detail).toContain("Send name or kind to change");
    expect((await admin.patch(`/api/admin/accounts/${crypto.randomUUID()}`, { name: "Y" })).status).toBe(404);
  });

  it("renames an account and changes its kind, with the change in the trail", async () => {
    const account = await newAccount("Lee Bakery", "individual");
    const res = await admin.patch(`/api/admin/accounts/${account.id}`, { name: "Lee Bakery LLC", kind: "business" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "Lee Bakery LLC", kind: "business" });
    const [event] = await trail("account.update", account.id);
    expect(event).toMatchObject({
      actor_id: adminUser.id,
      detail: { from: { name: "Lee Bakery", kind: "individual" }, to: { name: "Lee Bakery LLC", kind: "business" } },
    });
  });

  it("lists accounts newest first with their people, searchable by account name or a person's name or email, paged", async () => {
    const tag = randomBytes(4).toString("hex");
    const first = await newAccount(`Searchable ${tag} One`);
    const second = await newAccount(`Searchable ${tag} Two`);
    const invitee = email(`zed${tag}`);
    await admin.post(`/api/admin/accounts/${first.id}/contacts`, { name: `Zed ${tag}`, email: invitee });

    const byName = await admin.get(`/api/admin/accounts?q=${tag}&limit=1`);
    expect(byName.status, byName.text).toBe(200);
    expect(byName.headers.get("x-total-count")).toBe("2");
    expect(byName.body.map((a: { id: string }) => a.id)).toEqual([second.id]);
    expect(byName.headers.get("x-next-cursor")).toBe("1");
    const next = await admin.get(`/api/admin/accounts?q=${tag}&limit=1&offset=1`);
    expect(next.body.map((a: { id: string }) => a.id)).toEqual([first.id]);

    const byPerson = await admin.get(`/api/admin/accounts?q=${encodeURIComponent(invitee)}`);
    expect(byPerson.body).toEqual([
      expect.objectContaining({
        id: first.id,
        contacts: [expect.objectContaining({ user_id: null, name: `Zed ${tag}`, email: invitee, role: "owner" })],
      }),
    ]);
    const client = await verifiedClient(`Quinn ${tag}`);
    await admin.post(`/api/admin/accounts/${second.id}/contacts`, { name: "ignored", email: client.email });
    // Quinn's own account (made with them, so newer) and the one they were added to.
    expect((await admin.get(`/api/admin/accounts?q=Quinn%20${tag}`)).body.map((a: { id: string }) => a.id)).toEqual([client.id, second.id]);
    // The search text's wildcards are literal.
    expect((await admin.get(`/api/admin/accounts?q=${tag}%25`)).body).toEqual([]);
  });
});

describe("an account's people", () => {
  it("invites a new person by an emailed link; the firm requests, shares and writes before they accept; they find it all", async () => {
    const account = await newAccount("Nguyen Household");
    const to = email("linh");
    const added = await admin.post(`/api/admin/accounts/${account.id}/contacts`, { name: "Linh Nguyen", email: to });
    expect(added.status, added.text).toBe(201);
    expect(added.body.contacts).toEqual([
      {
        user_id: null,
        invitation_id: expect.any(String),
        name: "Linh Nguyen",
        email: to,
        role: "owner",
        portal_access: true,
        notify: true,
        email_verified: false,
      },
    ]);
    expect(await trail("account.contact_add", account.id)).toEqual([
      expect.objectContaining({ actor_id: adminUser.id, detail: expect.objectContaining({ email: to, how: "invite" }) }),
    ]);

    // Nobody has joined yet: the firm still asks, shares and writes (the account's id names it).
    const request = await admin.post("/api/admin/requests", { account_id: account.id, title: "2025 W-2" });
    expect(request.status, request.text).toBe(201);
    const form = new FormData();
    form.append("file", new Blob([new TextEncoder().encode("draft return")], { type: "text/plain" }), "Draft 1040.txt");
    const shared = await admin.request("POST", `/api/admin/users/${account.id}/documents`, { body: form });
    expect(shared.status, shared.text).toBe(201);
    const message = await admin.post(`/api/admin/messages/${account.id}`, { text: "Welcome: your draft is in Documents." });
    expect(message.status, message.text).toBe(201);

    const { client, userId } = await accept(await inviteToken(to), "Linh Nguyen");
    expect((await client.get("/api/accounts")).body).toEqual([{ id: account.id, name: "Nguyen Household", kind: "household", role: "owner" }]);
    expect((await client.get("/api/requests")).body.map((r: { title: string }) => r.title)).toEqual(["2025 W-2"]);
    expect((await client.get("/api/documents/root")).body.map((d: { original_filename: string }) => d.original_filename)).toEqual(["Draft 1040.txt"]);
    expect((await client.get("/api/messages")).body.map((m: { text: string }) => m.text)).toEqual(["Welcome: your draft is in Documents."]);
    const detail = await admin.get(`/api/admin/accounts/${account.id}`);
    expect(detail.body.contacts).toEqual([
      {
        user_id: userId,
        invitation_id: null,
        name: "Linh Nguyen",
        email: to,
        role: "owner",
        portal_access: true,
        notify: true,
        email_verified: true,
      },
    ]);
  });

  it("adds a client who proved the address at once, as a member once the account has people, and tells them by email", async () => {
    const account = await newAccount("Brown Household");
    const owner = await verifiedClient("Alex Brown");
    const spouse = await verifiedClient("Sam Brown");
    expect((await admin.post(`/api/admin/accounts/${account.id}/contacts`, { name: "Alex Brown", email: owner.email })).status).toBe(201);
    const res = await admin.post(`/api/admin/accounts/${account.id}/contacts`, {
      name: "Sam Brown",
      email: spouse.email.toUpperCase(),
      notify: false,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.contacts).toEqual([
      expect.objectContaining({ user_id: owner.id, role: "owner", email_verified: true }),
      expect.objectContaining({ user_id: spouse.id, role: "member", notify: false, portal_access: true }),
    ]);
    const mail = await smtp.waitForMail(spouse.email, /added you to a client account/, 30_000);
    expect(mail.text).toContain('"Brown Household"');
    const sam = await loginClient(server.url, spouse);
    expect((await sam.get("/api/accounts")).body).toContainEqual({ id: account.id, name: "Brown Household", kind: "household", role: "member" });

    // An owner still invited is the account's owner: the people who joined first can be changed meanwhile.
    const waiting = await newAccount("Waiting Owner");
    expect((await admin.post(`/api/admin/accounts/${waiting.id}/contacts`, { name: "Owner Invited", email: email("owner") })).status).toBe(201);
    await admin.post(`/api/admin/accounts/${waiting.id}/contacts`, { name: "Sam Brown", email: spouse.email });
    const changed = await admin.patch(`/api/admin/accounts/${waiting.id}/contacts/${spouse.id}`, { notify: false });
    expect(changed.status, changed.text).toBe(200);

    const again = await admin.post(`/api/admin/accounts/${account.id}/contacts`, { name: "Sam Brown", email: spouse.email });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: "This person is already a contact of this account" });
  });

  it("refuses the firm's own addresses, an address with a pending invitation, bad input, and unknown accounts", async () => {
    const account = await newAccount("Refusals");
    const firm = await admin.post(`/api/admin/accounts/${account.id}/contacts`, { name: "Staff", email: adminUser.email });
    expect(firm.status).toBe(409);
    expect(firm.body).toEqual({ detail: "This email belongs to a member of the firm" });
    const to = email("pending");
    expect((await admin.post(`/api/admin/accounts/${account.id}/contacts`, { name: "Pat Pending", email: to })).status).toBe(201);
    const twice = await admin.post(`/api/admin/accounts/${account.id}/contacts`, { name: "Pat Pending", email: to });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ detail: "This email already has a pending invitation: resend it instead" });
    expect((await admin.post(`/api/admin/accounts/${account.id}/contacts`, { name: "", email: email("x") })).status).toBe(422);
    expect((await admin.post(`/api/admin/accounts/${account.id}/contacts`, { name: "No Mail", email: "not-an-email" })).body.detail).toContain(
      "Please enter a valid email address",
    );
    expect((await admin.post(`/api/admin/accounts/${account.id}/contacts`, { name: "R", email: email("r"), role: "boss" })).body.detail).toContain(
      "role must be owner or member",
    );
    expect((await admin.post(`/api/admin/accounts/${crypto.randomUUID()}/contacts`, { name: "Nobody", email: email("n") })).status).toBe(404);
  });

  it("changes a person's role, portal access and emails, keeps an owner, and removes a person whose next request finds nothing", async () => {
    const account = await newAccount("Kim Household");
    const owner = await verifiedClient("Jo Kim");
    const member = await verifiedClient("Ari Kim");
    await admin.post(`/api/admin/accounts/${account.id}/contacts`, { name: "Jo Kim", email: owner.email });
    await admin.post(`/api/admin/accounts/${account.id}/contacts`, { name: "Ari Kim", email: member.email });
    const contact = (userId: string) => `/api/admin/accounts/${account.id}/contacts/${userId}`;

    const demote = await admin.patch(contact(owner.id), { role: "member" });
    expect(demote.status).toBe(409);
    expect(demote.body).toEqual({ detail: "An account with people keeps at least one owner: make another person its owner first" });
    expect((await admin.patch(contact(owner.id), {})).body.detail).toContain("Send role, portal_access or notify to change");
    expect((await admin.patch(contact(owner.id), { portal_access: "no" })).status).toBe(422);
    expect((await admin.patch(contact(crypto.randomUUID()), { notify: false })).body).toEqual({ detail: "Contact not found" });

    const ari = await loginClient(server.url, member);
    expect((await ari.post("/api/accounts/switch", { account_id: account.id })).status).toBe(200);
    const off = await admin.patch(contact(member.id), { portal_access: false, notify: false });
    expect(off.status, off.text).toBe(200);
    expect(off.body.contacts[1]).toMatchObject({ user_id: member.id, portal_access: false, notify: false });
    expect((await ari.get("/api/accounts")).body.map((a: { id: string }) => a.id)).not.toContain(account.id);
    expect((await ari.post("/api/accounts/switch", { account_id: account.id })).status).toBe(404);
    expect((await admin.patch(contact(member.id), { portal_access: true, role: "owner" })).status).toBe(200);
    expect((await admin.patch(contact(owner.id), { role: "member" })).status).toBe(200);

    // Ari owns it now: Jo's removal is fine, Ari's (the last owner, with Jo still there) is not.
    expect((await ari.post("/api/accounts/switch", { account_id: account.id })).status).toBe(200);
    expect((await admin.delete(contact(member.id))).status).toBe(409);
    const jo = await loginClient(server.url, owner);
    expect((await jo.post("/api/accounts/switch", { account_id: account.id })).status).toBe(200);
    const removed = await admin.delete(contact(owner.id));
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.contacts.map((c: { user_id: string }) => c.user_id)).toEqual([member.id]);
    // Jo's session had this account open: the next request is on Jo's own account, never this one.
    expect((await jo.get("/api/accounts")).body.map((a: { id: string }) => a.id)).not.toContain(account.id);
    expect((await jo.post("/api/accounts/switch", { account_id: account.id })).status).toBe(404);
    expect((await admin.delete(contact(owner.id))).status).toBe(404);
    // The last person may go: an account without people has no owner to keep.
    expect((await admin.delete(contact(member.id))).status).toBe(200);

    const events = (await trail("account.contact_update", account.id)).concat(await trail("account.contact_remove", account.id));
    expect(events.length).toBe(5);
    for (const e of events) expect(e.actor_id).toBe(adminUser.id);
  });

  it("needs manage_clients to change, while any of the firm's people may look", async () => {
    const account = await newAccount("Rights Check");
    const staff = await loginClient(server.url, await createStaffMember(server.db, "staff", ["all_clients"]), "admin");
    expect((await staff.get("/api/admin/accounts")).status).toBe(200);
    expect((await staff.get(`/api/admin/accounts/${account.id}`)).status).toBe(200);
    expect((await staff.post("/api/admin/accounts", { name: "No", kind: "individual" })).status).toBe(403);
    expect((await staff.post(`/api/admin/accounts/${account.id}/contacts`, { name: "No", email: email("no") })).status).toBe(403);
    const client = await loginClient(server.url, await createUser(server.db));
    expect((await client.get("/api/admin/accounts")).status).toBe(403);
  });
});

describe("CSV import", () => {
  const header = "Account name,Kind,Person name,Email";

  it("previews on a dry run: rows with one account name form one account, its first person the owner; refused rows say why", async () => {
    const tag = randomBytes(3).toString("hex");
    const existing = await verifiedClient("Existing Client");
    const [a, b] = [email("ana"), email("ben")];
    const csv = [
      header,
      `Ortiz ${tag},household,Ana Ortiz,${a}`,
      `"ortiz ${tag}",household,"Ben ""Benny"" Ortiz",${b}`,
      `Ortiz ${tag},business,Carla Ortiz,${email("carla")}`,
      `Shop ${tag},business,Existing Client,${existing.email}`,
      `Bad ${tag},family,Dan,${email("dan")}`,
      `Dup ${tag},individual,Ana Again,${a}`,
      `Short ${tag},individual,Only three`,
      `Firm ${tag},individual,Firm Person,${adminUser.email}`,
      "",
    ].join("\r\n");
    const before = await server.db
      .selectFrom("accounts")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    const res = await admin.post("/api/admin/accounts/import", { csv, dry_run: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      dry_run: true,
      accounts: [
        {
          id: null,
          name: `Ortiz ${tag}`,
          kind: "household",
          people: [
            { line: 2, name: "Ana Ortiz", email: a, role: "owner", action: "invite" },
            { line: 3, name: 'Ben "Benny" Ortiz', email: b, role: "member", action: "invite" },
          ],
        },
        {
          id: null,
          name: `Shop ${tag}`,
          kind: "business",
          people: [{ line: 5, name: "Existing Client", email: existing.email, role: "owner", action: "link" }],
        },
      ],
      refused: [
        { line: 4, reason: "Line 2 makes this account household" },
        { line: 6, reason: "kind must be individual, household or business" },
        { line: 7, reason: "This email is on line 2 already" },
        { line: 8, reason: "Expected 4 columns (account name, kind, person name, email), found 3" },
        { line: 9, reason: "This email belongs to a member of the firm" },
      ],
    });
    const after = await server.db
      .selectFrom("accounts")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it("makes the accounts and queues the invitations on a real run", async () => {
    const tag = randomBytes(3).toString("hex");
    const [a, b] = [email("eva"), email("finn")];
    const res = await admin.post("/api/admin/accounts/import", {
      csv: `Park ${tag},household,Eva Park,${a}\nPark ${tag},household,Finn Park,${b}\n`,
      dry_run: false,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.refused).toEqual([]);
    const [made] = res.body.accounts;
    expect(made.id).toEqual(expect.any(String));
    const detail = await admin.get(`/api/admin/accounts/${made.id}`);
    expect(detail.body).toMatchObject({ name: `Park ${tag}`, kind: "household" });
    expect(detail.body.contacts.map((c: { email: string; role: string; user_id: null }) => [c.email, c.role, c.user_id])).toEqual([
      [a, "owner", null],
      [b, "member", null],
    ]);
    const { client } = await accept(await inviteToken(b), "Finn Park");
    expect((await client.get("/api/accounts")).body).toEqual([{ id: made.id, name: `Park ${tag}`, kind: "household", role: "member" }]);
    expect(await trail("account.import", null)).toContainEqual(
      expect.objectContaining({ actor_id: adminUser.id, detail: { accounts: 1, people: 2, refused: 0 } }),
    );
  });

  it("refuses a file it cannot read, an empty one and one over the row limit", async () => {
    const unreadable = await admin.post("/api/admin/accounts/import", { csv: 'A,household,"Open quote,x@example.com', dry_run: true });
    expect(unreadable.status).toBe(422);
    expect(unreadable.body.detail).toBe("The CSV file could not be read: line 1 has a quoted field is not closed");
    expect((await admin.post("/api/admin/accounts/import", { csv: `${header}\n`, dry_run: true })).body.detail).toBe(
      "The CSV file has no rows: its columns are account name, kind, person name, email",
    );
    const many = Array.from({ length: 1001 }, (_, i) => `A${i},individual,P${i},p${i}@example.com`).join("\n");
    expect((await admin.post("/api/admin/accounts/import", { csv: many, dry_run: true })).body.detail).toBe(
      "The CSV file has more than 1,000 rows: split it",
    );
    expect((await admin.post("/api/admin/accounts/import", { csv: "", dry_run: true })).status).toBe(422);
    expect((await admin.post("/api/admin/accounts/import", { csv: "a,b,c,d", dry_run: "yes" })).status).toBe(422);
  });
});
