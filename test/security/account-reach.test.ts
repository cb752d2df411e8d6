// Issue 47, item 1 (docs/security.md, Round 4): a staff member limited to assigned accounts, with
// manage_clients, added the only person of an account outside their reach to an account inside it
// (a proven address joined at once), then deleted that person, and with them the unassigned
// account, its folders and documents. The rule: a firm action changes or deletes only accounts its
// caller reaches, checked for every account it touches (server/trpc/firm-scope.ts, `beyondReach`).
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaffMember, createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { linkToken, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";
import { seedObjects } from "./helpers.ts";

let smtp: TestSmtpServer;
let server: TestServer;
let owner: ApiClient;
let staff: ApiClient;
let staffId: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  owner = await loginClient(server.url, await createStaffMember(server.db, "owner"), "admin");
  const member = await createStaffMember(server.db, "staff", ["manage_clients", "documents"]);
  staffId = member.id;
  staff = await loginClient(server.url, member, "admin");
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

/** A client whose address is proven, alone in their own account (its id is theirs), with folders and documents. */
async function provenClient(): Promise<{ user: UserFixture; objects: Awaited<ReturnType<typeof seedObjects>> }> {
  const user = await createUser(server.db, { email: `client.${randomBytes(4).toString("hex")}@example.com` });
  await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
  return { user, objects: await seedObjects(server.db, server.deps.storage, user.id) };
}

async function assign(accountId: string): Promise<void> {
  const res = await owner.request("PUT", `/api/admin/accounts/${accountId}/assignees`, { json: { user_ids: [staffId] } });
  expect(res.status, res.text).toBe(200);
}

async function accountsOf(userId: string): Promise<string[]> {
  const rows = await server.db.selectFrom("account_contacts").select("account_id").where("user_id", "=", userId).orderBy("account_id").execute();
  return rows.map((r) => r.account_id);
}

/** The account, its folders and its documents, as they stand. */
async function accountRows(accountId: string) {
  return {
    account: await server.db.selectFrom("accounts").select("id").where("id", "=", accountId).executeTakeFirst(),
    folders: (await server.db.selectFrom("folders").select("id").where("account_id", "=", accountId).execute()).length,
    documents: (await server.db.selectFrom("documents").select("id").where("account_id", "=", accountId).execute()).length,
  };
}

describe("a staff member on assigned accounts cannot reach an unassigned account through a person", () => {
  it("the attack: adding the unassigned account's only person is an invitation, not a link, and deleting them is refused", async () => {
    const assigned = await provenClient();
    const victim = await provenClient();
    await assign(assigned.user.id);
    const before = await accountRows(victim.user.id);
    expect(before.documents).toBeGreaterThan(0);

    // Step 1: the proven address does not join at once; the person gets an invitation by mail.
    const added = await staff.post(`/api/admin/accounts/${assigned.user.id}/contacts`, { name: "Victim", email: victim.user.email });
    expect(added.status, added.text).toBe(201);
    const listed = (added.body as { contacts: { email: string; user_id: string | null; invitation_id: string | null }[] }).contacts.find(
      (c) => c.email === victim.user.email,
    );
    expect(listed).toMatchObject({ user_id: null, invitation_id: expect.any(String) });
    expect(await accountsOf(victim.user.id)).toEqual([victim.user.id]);
    const mail = await smtp.waitForMail(victim.user.email, /join/i);
    expect(linkToken(mail, "invite")).toBeTruthy();

    // Step 2: deleting the person (who reaches no assigned account of the staff member's) is 404 as
    // before; once they are in both (the firm's owner adds them), it is a 403 naming why.
    expect((await staff.delete(`/api/admin/users/${victim.user.id}`)).status).toBe(404);
    const linked = await owner.post(`/api/admin/accounts/${assigned.user.id}/contacts`, { name: "Victim", email: victim.user.email });
    expect(linked.status, linked.text).toBe(201);
    expect(await accountsOf(victim.user.id)).toEqual([assigned.user.id, victim.user.id].sort());
    const refused = await staff.delete(`/api/admin/users/${victim.user.id}`);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.detail).toMatch(/client account you are not assigned to/);

    // Nothing of the unassigned account went, nor the person.
    expect(await accountRows(victim.user.id)).toEqual(before);
    expect(await server.db.selectFrom("users").select("id").where("id", "=", victim.user.id).executeTakeFirst()).toBeDefined();
    expect(await accountsOf(victim.user.id)).toEqual([assigned.user.id, victim.user.id].sort());
  });

  it("the invitation joins the person only when they accept it, signed in with the invited address", async () => {
    const assigned = await provenClient();
    const person = await provenClient();
    await assign(assigned.user.id);
    const added = await staff.post(`/api/admin/accounts/${assigned.user.id}/contacts`, { name: "Person", email: person.user.email, role: "owner" });
    expect(added.status, added.text).toBe(201);
    const token = linkToken(await smtp.waitForMail(person.user.email, /join/i), "invite");
    expect(await accountsOf(person.user.id)).toEqual([person.user.id]);
    // The link's page offers joining (the account's name), as an owner's invitation does.
    const peek = await new ApiClient(server.url).post("/api/auth/invitations/check", { token });
    expect(peek.status, peek.text).toBe(200);
    expect(peek.body.account_name).toBeTruthy();
    const api = await loginClient(server.url, person.user);
    const joined = await api.post("/api/accounts/join", { token });
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body).toMatchObject({ id: assigned.user.id, role: "owner" });
    expect(await accountsOf(person.user.id)).toEqual([assigned.user.id, person.user.id].sort());
  });

  it("a person in the assigned accounts only is still added at once, and deleted with the accounts they were the last of", async () => {
    const assigned = await provenClient();
    const second = await provenClient();
    await assign(assigned.user.id);
    await assign(second.user.id);
    const added = await staff.post(`/api/admin/accounts/${assigned.user.id}/contacts`, { name: "Second", email: second.user.email });
    expect(added.status, added.text).toBe(201);
    expect(await accountsOf(second.user.id)).toEqual([assigned.user.id, second.user.id].sort());
    const deleted = await staff.delete(`/api/admin/users/${second.user.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await accountRows(second.user.id)).account).toBeUndefined();
    expect((await accountRows(assigned.user.id)).account).toBeDefined();
  });

  it("the firm's import invites a proven address that is in an account beyond the importer's reach", async () => {
    const victim = await provenClient();
    const csv = `account name,kind,person name,email\nImported ${randomBytes(3).toString("hex")},individual,Victim,${victim.user.email}\n`;
    const dry = await staff.post("/api/admin/accounts/import", { csv, dry_run: true });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.accounts[0].people[0]).toMatchObject({ email: victim.user.email, action: "invite" });
    const made = await staff.post("/api/admin/accounts/import", { csv, dry_run: false });
    expect(made.status, made.text).toBe(200);
    expect(await accountsOf(victim.user.id)).toEqual([victim.user.id]);
    // The firm's owner reaches every account: the same file links the person at once.
    const byOwner = await owner.post("/api/admin/accounts/import", { csv: csv.replace("Imported", "Owner import"), dry_run: true });
    expect(byOwner.body.accounts[0].people[0]).toMatchObject({ action: "link" });
  });
});

// Security round 4's review (docs/security.md, "Round 4 (issue 47): invitations replaced within
// reach"): a new client's invitation replaced an expired invitation to the same address in any
// account, took over that account with what the firm had put there, and made the inviting staff
// member its assignee.
describe("an expired invitation gives way only within the inviter's reach", () => {
  const invitee = () => `invitee.${randomBytes(4).toString("hex")}@example.com`;

  /** The firm's owner invites `email` (a new account, which no staff member is assigned to), and files a document there. */
  async function invitedByOwner(email: string): Promise<{ invitationId: string; accountId: string }> {
    const made = await owner.post("/api/admin/invitations", { name: "Invitee", email });
    expect(made.status, made.text).toBe(201);
    const accountId = made.body.account_id as string;
    await server.db
      .insertInto("documents")
      .values({
        account_id: accountId,
        original_filename: "prepared-1040.pdf",
        storage_key: randomUUID(),
        content_type: "application/pdf",
        file_size: 3,
        sha256: "0".repeat(64),
      })
      .execute();
    return { invitationId: made.body.id as string, accountId };
  }

  async function expire(invitationId: string): Promise<void> {
    await server.db
      .updateTable("invitations")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("id", "=", invitationId)
      .execute();
  }

  const assignees = async (accountId: string) =>
    (await server.db.selectFrom("account_assignees").select("user_id").where("account_id", "=", accountId).execute()).map((r) => r.user_id);

  it("the attack: an expired invitation beyond reach is left alone, and its account with its documents stays out of reach", async () => {
    const email = invitee();
    const beyond = await invitedByOwner(email);
    await expire(beyond.invitationId);

    const made = await staff.post("/api/admin/invitations", { name: "Invitee", email });
    expect(made.status, made.text).toBe(201);
    // A new account, the staff member's; the one beyond reach keeps its invitation, and gains no assignee.
    expect(made.body.account_id).not.toBe(beyond.accountId);
    expect(await assignees(made.body.account_id as string)).toEqual([staffId]);
    expect(await assignees(beyond.accountId)).toEqual([]);
    const kept = await server.db.selectFrom("invitations").select(["id", "account_id"]).where("id", "=", beyond.invitationId).executeTakeFirst();
    expect(kept).toEqual({ id: beyond.invitationId, account_id: beyond.accountId });
    expect((await staff.get(`/api/admin/users/${beyond.accountId}/documents`)).status).toBe(404);
    expect((await accountRows(beyond.accountId)).documents).toBe(1);
  });

  it("a pending invitation beyond reach is answered as before, and nothing changes", async () => {
    const email = invitee();
    const beyond = await invitedByOwner(email);
    const refused = await staff.post("/api/admin/invitations", { name: "Invitee", email });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.detail).toBe("This email already has a pending invitation: resend it instead");
    expect(await assignees(beyond.accountId)).toEqual([]);
  });

  it("an expired invitation within reach still gives way, handing over its account", async () => {
    const email = invitee();
    const first = await staff.post("/api/admin/invitations", { name: "Invitee", email });
    expect(first.status, first.text).toBe(201);
    await expire(first.body.id as string);
    const again = await staff.post("/api/admin/invitations", { name: "Invitee", email });
    expect(again.status, again.text).toBe(201);
    expect(again.body.account_id).toBe(first.body.account_id);
    expect(await server.db.selectFrom("invitations").select("id").where("id", "=", first.body.id).executeTakeFirst()).toBeUndefined();
  });
});
