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
    expect((await admin.patch(`/api/admin/accounts/${account.id}`, {})).body.detail).toContain("Send name, kind or claim_reviewed to change");
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
        household_role: null,
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
        household_role: null,
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
    expect((await admin.patch(contact(owner.id), {})).body.detail).toContain("Send role, household_role, portal_access or notify to change");
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

// Issue 34: the firm's private notes on a client's record. Anyone of the firm who reaches the
// account reads them and adds their own; only the author changes or deletes one; the trail says a
// note was added, changed or deleted without its words; clients never see notes nor those entries.
describe("an account's private notes", () => {
  type Note = { id: string; body: string; author_id: string | null; author_name: string; mine: boolean; created_at: string; updated_at: string };
  const notesOf = (id: string) => `/api/admin/accounts/${id}/notes`;

  it("adds, lists, changes and deletes notes; only the author changes one; the trail has no words; the client sees nothing", async () => {
    const client = await createUser(server.db, { name: "Nora Noted" });
    const clientApi = await loginClient(server.url, client);
    const colleague = await loginClient(server.url, await createStaffMember(server.db, "admin", [], { name: "Cole League" }), "admin");

    const added = await admin.post(notesOf(client.id), { body: "  Prefers calls after 3 pm; spouse handles the W-2s.  " });
    expect(added.status, added.text).toBe(201);
    const note = added.body as Note;
    expect(note).toMatchObject({ body: "Prefers calls after 3 pm; spouse handles the W-2s.", author_id: adminUser.id, mine: true });
    const second = (await colleague.post(notesOf(client.id), { body: "Second note" })).body as Note;

    // Newest first; each reader is told which ones are theirs.
    const listed = await colleague.get(notesOf(client.id));
    expect(listed.status).toBe(200);
    expect((listed.body as Note[]).map((n) => [n.id, n.mine])).toEqual([
      [second.id, true],
      [note.id, false],
    ]);

    // Someone else's note: readable, not changeable.
    for (const res of [
      await colleague.patch(`${notesOf(client.id)}/${note.id}`, { body: "Mine now" }),
      await colleague.delete(`${notesOf(client.id)}/${note.id}`),
    ]) {
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { detail: "Only the note's author may change or delete it" } });
    }

    const changed = await admin.patch(`${notesOf(client.id)}/${note.id}`, { body: "Prefers calls after 4 pm." });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ id: note.id, body: "Prefers calls after 4 pm.", mine: true });
    expect(new Date((changed.body as Note).updated_at).getTime()).toBeGreaterThanOrEqual(new Date(note.created_at).getTime());

    expect((await admin.delete(`${notesOf(client.id)}/${note.id}`)).body).toEqual({ success: true });
    expect((await admin.patch(`${notesOf(client.id)}/${note.id}`, { body: "again" })).status).toBe(404);
    expect((await admin.get(notesOf(client.id))).body).toMatchObject([{ id: second.id }]);

    // The trail: who and which note, never the words.
    const events = await server.db
      .selectFrom("activity_events")
      .select(["action", "actor_id", "target_id", "detail"])
      .where("account_id", "=", client.id)
      .where("action", "like", "account.note_%")
      .orderBy("id")
      .execute();
    expect(events.map((e) => [e.action, e.actor_id, e.target_id])).toEqual([
      ["account.note_add", adminUser.id, note.id],
      ["account.note_add", expect.any(String), second.id],
      ["account.note_update", adminUser.id, note.id],
      ["account.note_delete", adminUser.id, note.id],
    ]);
    expect(JSON.stringify(events)).not.toMatch(/calls after/);

    // The client: no notes path, and no trace of them in their own trail (which does show the account's other events).
    expect((await clientApi.get(notesOf(client.id))).status).toBe(403);
    expect((await clientApi.post(notesOf(client.id), { body: "hello" })).status).toBe(403);
    await admin.patch(`/api/admin/accounts/${client.id}`, { name: "Nora Noted household" });
    const own = await clientApi.get("/api/activity?limit=200");
    expect(own.status).toBe(200);
    const actions = (own.body as { items: { action: string }[] }).items.map((i) => i.action);
    expect(actions).toContain("account.update");
    expect(actions.filter((a) => a.startsWith("account.note_"))).toEqual([]);
  });

  it("a staff member without rights reaches the notes of their assigned accounts only; elsewhere a 404", async () => {
    const assigned = await newAccount("Assigned Notes LLC", "business");
    const other = await newAccount("Other Notes LLC", "business");
    const staff = await createStaffMember(server.db, "staff", [], { name: "Nadia Noright" });
    const staffApi = await loginClient(server.url, staff, "admin");
    const put = await admin.request("PUT", `/api/admin/accounts/${assigned.id}/assignees`, { json: { user_ids: [staff.id] } });
    expect(put.status, put.text).toBe(200);
    const otherNote = (await admin.post(notesOf(other.id), { body: "Not for everyone" })).body as Note;

    const mine = await staffApi.post(notesOf(assigned.id), { body: "Assigned and noted" });
    expect(mine.status, mine.text).toBe(201);
    expect((await staffApi.get(notesOf(assigned.id))).body).toMatchObject([{ body: "Assigned and noted", mine: true }]);
    expect((await staffApi.patch(`${notesOf(assigned.id)}/${(mine.body as Note).id}`, { body: "Changed" })).status).toBe(200);

    const outside = [
      await staffApi.get(notesOf(other.id)),
      await staffApi.post(notesOf(other.id), { body: "Sneaky" }),
      await staffApi.patch(`${notesOf(other.id)}/${otherNote.id}`, { body: "Sneaky" }),
      await staffApi.delete(`${notesOf(other.id)}/${otherNote.id}`),
      // Another account's note through an account the staff member reaches is no note of that account.
      await staffApi.patch(`${notesOf(assigned.id)}/${otherNote.id}`, { body: "Sneaky" }),
    ];
    expect(outside.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    expect(outside[0]!.body).toEqual({ detail: "Account not found" });
    expect((await admin.get(notesOf(other.id))).body).toMatchObject([{ body: "Not for everyone" }]);
  });

  it("refuses bad input with a 422 and a clear detail", async () => {
    const account = await newAccount("Input Notes", "individual");
    const cases: [unknown, string][] = [
      [{}, "Write the note first"],
      [{ body: "   " }, "Write the note first"],
      [{ body: 42 }, "Write the note first"],
      [{ body: "x".repeat(10_001) }, "A note must be at most 10,000 characters"],
      [{ body: "a\u0000b" }, "A note cannot contain NUL characters"],
    ];
    for (const [body, detail] of cases) {
      const res = await admin.request("POST", notesOf(account.id), { json: body });
      expect({ status: res.status, detail: res.body.detail }).toEqual({ status: 422, detail });
    }
    expect((await admin.post(notesOf("00000000-0000-4000-8000-000000000000"), { body: "x" })).status).toBe(404);
    // A malformed id names nothing, as every id does here (shared-schemas.ts).
    expect((await admin.patch(`${notesOf(account.id)}/not-a-note`, { body: "x" })).body).toEqual({ detail: "Not found" });
    expect((await admin.post(notesOf(account.id), { body: "x".repeat(10_000) })).status).toBe(201);
  });
});

// Issue 34: the record's Documents section makes folders in the client's tree.
describe("a folder the firm makes in a client's tree", () => {
  it("makes folders at the root and inside one, refuses a sibling's name and another account's parent; the client finds them", async () => {
    const client = await createUser(server.db, { name: "Fiona Folders" });
    const clientApi = await loginClient(server.url, client);
    const other = await newAccount("Other Folders", "individual");
    const foreign = await admin.post(`/api/admin/users/${other.id}/folders`, { name: "Theirs" });
    expect(foreign.status, foreign.text).toBe(201);

    const made = await admin.post(`/api/admin/users/${client.id}/folders`, { name: "  2025 Return  ", color: "#10B981" });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ name: "2025 Return", color: "#10B981", parent_folder_id: null });
    const inner = await admin.post(`/api/admin/users/${client.id}/folders`, { name: "Signed", parent_folder_id: made.body.id });
    expect(inner.body).toMatchObject({ name: "Signed", parent_folder_id: made.body.id, color: "#3B82F6" });

    const twice = await admin.post(`/api/admin/users/${client.id}/folders`, { name: "2025 return" });
    expect({ status: twice.status, body: twice.body }).toEqual({ status: 409, body: { detail: 'A folder named "2025 return" already exists here' } });
    const elsewhere = await admin.post(`/api/admin/users/${client.id}/folders`, { name: "Sneaky", parent_folder_id: foreign.body.id });
    expect({ status: elsewhere.status, body: elsewhere.body }).toEqual({ status: 404, body: { detail: "Parent folder not found" } });
    expect((await admin.post(`/api/admin/users/${client.id}/folders`, { name: "" })).status).toBe(422);

    const theirs = (await clientApi.get("/api/folders")).body as { name: string }[];
    expect(theirs.map((f) => f.name).sort()).toEqual(["2025 Return", "Signed"]);
    const events = await trail("folder.create", client.id);
    expect(events.map((e) => [e.actor_id, (e.detail as { folder: string }).folder])).toEqual([
      [adminUser.id, "2025 Return"],
      [adminUser.id, "Signed"],
    ]);
  });
});

describe("the firm's paths take the account", () => {
  it("names an account by its id on every client path, keeps a person's id for a one-person account, and is 404 outside the asker's reach", async () => {
    // A client whose own account shares their id (as the migration made it), also an owner of a household.
    const pat = await createUser(server.db, { name: "Pat Lee", email: email("pat") });
    const house = await newAccount("Lee Household");
    await server.db.insertInto("account_contacts").values({ account_id: house.id, user_id: pat.id, role: "owner" }).execute();

    const form = () => {
      const f = new FormData();
      f.append("file", new Blob([new TextEncoder().encode("joint return")], { type: "text/plain" }), "Joint 1040.txt");
      return f;
    };
    // The household's id on the person-id paths: documents, messages, quota, invitations.
    expect((await admin.request("POST", `/api/admin/users/${house.id}/documents`, { body: form() })).status).toBe(201);
    const docs = await admin.get(`/api/admin/users/${house.id}/documents`);
    expect(docs.body.map((d: { original_filename: string }) => d.original_filename)).toEqual(["Joint 1040.txt"]);
    expect((await admin.get(`/api/admin/users/${house.id}/folders`)).status).toBe(200);
    expect((await admin.post(`/api/admin/messages/${house.id}`, { text: "For both of you" })).status).toBe(201);
    expect((await admin.get(`/api/admin/messages/${house.id}`)).body.map((m: { text: string }) => m.text)).toEqual(["For both of you"]);
    const quota = await admin.patch(`/api/admin/users/${house.id}/quota`, { quota_mb: 50 });
    expect(quota.status, quota.text).toBe(200);
    expect(
      (await server.db.selectFrom("accounts").select("storage_quota_mb").where("id", "=", house.id).executeTakeFirstOrThrow()).storage_quota_mb,
    ).toBe(50);
    expect((await admin.post("/api/admin/requests", { account_id: house.id, title: "Both W-2s" })).status).toBe(201);

    // Pat's own id still names Pat's own account, though Pat now owns two (it is that account's id too).
    expect((await admin.post(`/api/admin/messages/${pat.id}`, { text: "Just for you" })).status).toBe(201);
    expect((await admin.get(`/api/admin/messages/${pat.id}`)).body.map((m: { text: string }) => m.text)).toEqual(["Just for you"]);
    expect((await admin.get(`/api/admin/users/${pat.id}/documents`)).body).toEqual([]);

    // A person whose accounts all have other ids: their one account by their id, 409 once they have two.
    const joined = await verifiedClient("Ray Joined");
    await server.db.deleteFrom("accounts").where("id", "=", joined.id).execute();
    const shop = await newAccount("Ray's Shop", "business");
    expect((await admin.post(`/api/admin/accounts/${shop.id}/contacts`, { name: "Ray Joined", email: joined.email })).status).toBe(201);
    expect((await admin.post(`/api/admin/messages/${joined.id}`, { text: "To the shop" })).status).toBe(201);
    expect((await admin.get(`/api/admin/messages/${shop.id}`)).body.map((m: { text: string }) => m.text)).toEqual(["To the shop"]);
    const second = await newAccount("Ray's Second Shop", "business");
    await admin.post(`/api/admin/accounts/${second.id}/contacts`, { name: "Ray Joined", email: joined.email, role: "owner" });
    const several = await admin.get(`/api/admin/users/${joined.id}/documents`);
    expect(several.status).toBe(409);
    expect(several.body).toEqual({ detail: "This person belongs to several accounts: use account_id" });

    // A preparer who reaches only assigned accounts: the household is out of reach on every path.
    const preparer = await createStaffMember(server.db, "staff", ["documents", "messages", "manage_clients"]);
    const staff = await loginClient(server.url, preparer, "admin");
    expect((await staff.get(`/api/admin/users/${house.id}/documents`)).status).toBe(404);
    expect((await staff.request("POST", `/api/admin/users/${house.id}/documents`, { body: form() })).status).toBe(404);
    expect((await staff.post(`/api/admin/messages/${house.id}`, { text: "x" })).status).toBe(404);
    expect((await staff.get(`/api/admin/messages/${house.id}`)).status).toBe(404);
    expect((await staff.post("/api/admin/invitations", { name: "Kim Lee", email: email("kim"), account_id: house.id })).status).toBe(404);
    await server.db.insertInto("account_assignees").values({ account_id: house.id, user_id: preparer.id }).execute();
    expect((await staff.get(`/api/admin/users/${house.id}/documents`)).status).toBe(200);
    expect((await staff.post(`/api/admin/messages/${house.id}`, { text: "Your preparer here" })).status).toBe(201);
  });

  it("invites a person to an existing account by account_id, and to a second account while the first invitation is open", async () => {
    const to = email("sky");
    const plain = await admin.post("/api/admin/invitations", { name: "Sky Diaz", email: to });
    expect(plain.status, plain.text).toBe(201);
    // A second plain invitation would make a second account for the same newcomer: still refused.
    expect((await admin.post("/api/admin/invitations", { name: "Sky Diaz", email: to })).status).toBe(409);
    const house = await newAccount("Diaz Household");
    const first = await admin.post("/api/admin/invitations", { name: "Sky Diaz", email: to, account_id: house.id });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ account_id: house.id, status: "pending" });
    const twice = await admin.post("/api/admin/invitations", { name: "Sky Diaz", email: to, account_id: house.id });
    expect(twice.status).toBe(409);
    // The accounts' own paths too: one open invitation per address per account.
    const shop = await newAccount("Diaz Shop", "business");
    expect((await admin.post(`/api/admin/accounts/${shop.id}/contacts`, { name: "Sky Diaz", email: to })).status).toBe(201);
    expect((await admin.post(`/api/admin/accounts/${shop.id}/contacts`, { name: "Sky Diaz", email: to })).status).toBe(409);
    expect((await admin.post("/api/admin/invitations", { name: "Sky", email: email("s"), account_id: crypto.randomUUID() })).status).toBe(404);
    expect((await admin.post("/api/admin/invitations", { name: "Sky", email: email("s"), account_id: "nope" })).status).toBe(422);
    // An owner's invitation from their account is not blocked by the firm's to another account.
    const owner = await verifiedClient("Lou Owner");
    const lou = await loginClient(server.url, owner);
    const invited = await lou.post("/api/account/contacts", { name: "Sky Diaz", email: to });
    expect(invited.status, invited.text).toBe(201);
    const open = await server.db.selectFrom("invitations").select("account_id").where("email", "=", to).where("revoked_at", "is", null).execute();
    expect(open.map((o) => o.account_id).sort()).toEqual([plain.body.account_id, house.id, shop.id, owner.id].sort());
  });

  it("removes the account a revoked invitation made while it is empty, and keeps one with data or people", async () => {
    const exists = async (id: string) => (await server.db.selectFrom("accounts").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
    const empty = await admin.post("/api/admin/invitations", { name: "Empty Invitee", email: email("empty") });
    expect((await admin.delete(`/api/admin/invitations/${empty.body.id}`)).status).toBe(200);
    expect(await exists(empty.body.account_id)).toBe(false);
    // The revoked invitation stays on record, no longer tied to an account.
    expect(
      await server.db.selectFrom("invitations").select(["account_id", "revoked_at"]).where("id", "=", empty.body.id).executeTakeFirstOrThrow(),
    ).toEqual({
      account_id: null,
      revoked_at: expect.any(Date),
    });
    expect(await trail("invitation.revoke", null)).toContainEqual(
      expect.objectContaining({ detail: expect.objectContaining({ name: "Empty Invitee" }) }),
    );

    const withData = await admin.post("/api/admin/invitations", { name: "Asked Invitee", email: email("asked") });
    expect((await admin.post("/api/admin/requests", { account_id: withData.body.account_id, title: "1099s" })).status).toBe(201);
    expect((await admin.delete(`/api/admin/invitations/${withData.body.id}`)).status).toBe(200);
    expect(await exists(withData.body.account_id)).toBe(true);

    // An account the firm made itself stays, whoever it invited.
    const house = await newAccount("Kept Household");
    const added = await admin.post(`/api/admin/accounts/${house.id}/contacts`, { name: "Kept Invitee", email: email("kept") });
    expect((await admin.delete(`/api/admin/invitations/${added.body.contacts[0].invitation_id}`)).status).toBe(200);
    expect(await exists(house.id)).toBe(true);

    // An account with another person stays too.
    const shared = await admin.post("/api/admin/invitations", { name: "Shared Invitee", email: email("shared") });
    const other = await verifiedClient("Other Person");
    expect((await admin.post(`/api/admin/accounts/${shared.body.account_id}/contacts`, { name: "Other Person", email: other.email })).status).toBe(
      201,
    );
    expect((await admin.delete(`/api/admin/invitations/${shared.body.id}`)).status).toBe(200);
    expect(await exists(shared.body.account_id)).toBe(true);
  });

  it("mails every contact with notify about a request, greeting them all, and nobody without notify", async () => {
    const house = await newAccount("Okafor Household");
    const [ada, ben, cy] = [await verifiedClient("Ada Okafor"), await verifiedClient("Ben Okafor"), await verifiedClient("Cy Okafor")];
    await admin.post(`/api/admin/accounts/${house.id}/contacts`, { name: "Ada Okafor", email: ada.email });
    await admin.post(`/api/admin/accounts/${house.id}/contacts`, { name: "Ben Okafor", email: ben.email });
    await admin.post(`/api/admin/accounts/${house.id}/contacts`, { name: "Cy Okafor", email: cy.email, notify: false });

    expect((await admin.post("/api/admin/requests", { account_id: house.id, title: "Both W-2s" })).status).toBe(201);
    const asked = await smtp.waitForMail(ben.email, /^Document request/, 30_000);
    expect(asked.to.sort()).toEqual([ada.email, ben.email].sort());
    expect(asked.text).toContain("Hello Ada Okafor and Ben Okafor,");

    expect(smtp.messages.some((m) => m.to.includes(cy.email) && /Document request/.test(m.subject))).toBe(false);
  });
});

describe("a person's own events", () => {
  it("records a sign-in and a password change under the person, and not on the household they belong to", async () => {
    const house = await newAccount("Quiet Household");
    const person = await verifiedClient("Noor Quiet");
    expect((await admin.post(`/api/admin/accounts/${house.id}/contacts`, { name: "Noor Quiet", email: person.email })).status).toBe(201);
    const noor = await loginClient(server.url, person);
    const changed = await noor.post("/api/auth/change-password", { current_password: DEFAULT_PASSWORD, new_password: "Violet-Harbor-Lantern-93" });
    expect(changed.status, changed.text).toBe(200);
    const events = await server.db
      .selectFrom("activity_events")
      .select(["action", "account_id"])
      .where("actor_id", "=", person.id)
      .where("action", "in", ["auth.sign_in", "auth.password_change"])
      .execute();
    expect(events.filter((e) => e.action === "auth.sign_in")).toEqual([{ action: "auth.sign_in", account_id: person.id }]);
    expect(events.filter((e) => e.action === "auth.password_change")).toEqual([{ action: "auth.password_change", account_id: person.id }]);
    expect(await trail("auth.sign_in", house.id)).toEqual([]);
  });
});

describe("CSV import from a file", () => {
  it("reads an uploaded .csv file as it reads the JSON text: the same preview and refused rows, and a real run", async () => {
    const tag = randomBytes(3).toString("hex");
    const [a, b] = [email("gia"), email("hal")];
    const csv = `\uFEFFAccount name,Kind,Person name,Email\r\nRossi ${tag},household,Gia Rossi,${a}\r\nRossi ${tag},household,Hal Rossi,${b}\r\nBad ${tag},family,Dan,${email("dan")}\r\n`;
    const upload = (text: string, fields: Record<string, string> = {}, filename = "clients.csv", type = "text/csv") => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.append(k, v);
      f.append("file", new Blob([new TextEncoder().encode(text)], { type }), filename);
      return admin.request("POST", "/api/admin/accounts/import", { body: f });
    };
    const preview = await upload(csv);
    expect(preview.status, preview.text).toBe(200);
    const json = await admin.post("/api/admin/accounts/import", { csv: csv.replace(/^\uFEFF/, ""), dry_run: true });
    expect(preview.body).toEqual(json.body);
    expect(preview.body.refused).toEqual([{ line: 4, reason: "kind must be individual, household or business" }]);
    expect(preview.body.accounts[0].people.map((p: { email: string }) => p.email)).toEqual([a, b]);

    const real = await upload(csv, { dry_run: "false" });
    expect(real.status, real.text).toBe(200);
    expect(real.body.dry_run).toBe(false);
    expect((await admin.get(`/api/admin/accounts/${real.body.accounts[0].id}`)).body.contacts.map((c: { email: string }) => c.email)).toEqual([a, b]);

    const notCsv = await upload("%PDF-1.4", {}, "return.pdf", "application/pdf");
    expect(notCsv.status).toBe(422);
    expect(notCsv.body.detail).toBe("Upload a .csv file (comma-separated text)");
    expect((await upload(csv, { dry_run: "maybe" })).status).toBe(422);
    const big = await upload(`${"x".repeat(1_000_001)}`);
    expect(big.status).toBe(413);
    expect(big.body.detail).toBe("The CSV file must be at most 1 MB: split it");
    const none = new FormData();
    none.append("dry_run", "true");
    expect((await admin.request("POST", "/api/admin/accounts/import", { body: none })).body.detail).toBe("No file was uploaded");
    const unreadable = await upload('A,household,"Open quote,x@example.com');
    expect(unreadable.status).toBe(422);
    const doc = (await admin.get("/api/openapi.json")).body;
    expect(Object.keys(doc.paths["/admin/accounts/import"].post.requestBody.content).sort()).toEqual(["application/json", "multipart/form-data"]);
  });
});
