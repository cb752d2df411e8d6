// Issue 33, part 1: the firm as a team. Staff are invited (a staff invitation accepted at the client
// invitation's path, then a second factor enrolled), each right opens its domain and nothing else
// (403 naming the right), deactivation ends a live session at its next request and stops sign-in,
// the owner stays until ownership is transferred, and every change is in the trail naming who acted.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STAFF_RIGHTS } from "../../server/trpc/staff-rights.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { createStaffMember, createUser, DEFAULT_PASSWORD, loginClient, signIn, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const STEP_MS = 30_000;
const NEW_PASSWORD = "Copper-Lantern-Meadow-9";

let smtp: TestSmtpServer;
let server: TestServer;
let owner: UserFixture;
let ownerApi: ApiClient;
let ipCounter = 0;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, TRUST_PROXY: "1" } });
  owner = await createStaffMember(server.db, "owner", [], { name: "Olivia Owner" });
  ownerApi = await loginClient(server.url, owner, "admin");
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

/** A browser of its own (cookies) at an address of its own. */
function browser(): ApiClient {
  ipCounter++;
  return new ApiClient(server.url, { Origin: server.url, "X-Forwarded-For": `198.51.100.${ipCounter}` });
}
const unique = (what: string) => `${what}_${randomBytes(3).toString("hex")}`;
const codeAt = (secret: string, at: number) => generateHOTP(decodeBase32IgnorePadding(secret), BigInt(at), 6);
const step = () => Math.floor(server.clock.now().getTime() / STEP_MS);

async function inviteToken(email: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mail = smtp.messages.find((m) => m.to.includes(email));
    if (mail) {
      const link = /\/\?invite=([a-z2-7]+)/.exec(mail.text);
      expect(mail.subject).toMatch(/invitation to the .* team/);
      return link![1]!;
    }
    if (Date.now() > deadline) throw new Error(`no invitation mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The links of every invitation mail to `email` so far, once there are `count` of them, oldest first. */
async function inviteTokens(email: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const links = smtp.messages.filter((m) => m.to.includes(email)).map((m) => /\/\?invite=([a-z2-7]+)/.exec(m.text)![1]!);
    if (links.length >= count) return links;
    if (Date.now() > deadline) throw new Error(`${links.length} invitation mails to ${email}, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function trail(action: string, targetId: string) {
  return server.db
    .selectFrom("activity_events")
    .select(["actor_id", "actor_role", "detail"])
    .where("action", "=", action)
    .where("target_id", "=", targetId)
    .execute();
}

/** One representative path of each right's domain (all_clients is enforced with assignments, in the next step). */
const PATH_OF_RIGHT: Record<Exclude<(typeof STAFF_RIGHTS)[number], "all_clients">, string> = {
  manage_clients: "/api/admin/invitations",
  documents: "/api/admin/documents",
  requests: "/api/admin/requests",
  messages: "/api/admin/messages",
  appointments: "/api/admin/appointments",
  site: "/api/admin/site-content",
  activity: "/api/admin/activity",
  settings: "/api/admin/registration",
  staff: "/api/admin/staff",
};

describe("inviting staff", () => {
  it("an emailed link, accepted at the client invitation's path, enrols a second factor, then opens the admin portal with the rights given", async () => {
    const email = `${unique("preparer")}@example.com`;
    const invited = await ownerApi.post("/api/admin/staff", { name: "Pat Preparer", email, role: "staff", rights: ["documents", "messages"] });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body).toMatchObject({ name: "Pat Preparer", email, role: "staff", rights: ["documents", "messages"] });
    expect((await trail("staff.invite", invited.body.id))[0]).toMatchObject({ actor_id: owner.id, actor_role: "admin" });
    // Not a client invitation: the client invitations' list and paths leave it alone.
    expect(JSON.stringify((await ownerApi.get("/api/admin/invitations")).body)).not.toContain(email);
    expect((await ownerApi.delete(`/api/admin/invitations/${invited.body.id}`)).status).toBe(404);

    expect((await ownerApi.get("/api/admin/staff/invitations")).body).toEqual([
      expect.objectContaining({ id: invited.body.id, email, role: "staff", status: "pending" }),
    ]);
    const token = await inviteToken(email);
    const client = browser();
    expect((await client.post("/api/auth/invitations/check", { token })).body).toMatchObject({ email, for_staff: true });
    const accepted = await client.post("/api/auth/invitations/accept", {
      token,
      username: unique("pat"),
      name: "Pat Preparer",
      password: NEW_PASSWORD,
    });
    expect(accepted.status, accepted.text).toBe(201);
    expect(accepted.body).toEqual({ two_factor_setup_required: true, challenge: expect.any(String) });
    // No session before the second factor is on.
    expect((await client.get("/api/admin/me")).status).toBe(401);
    const setup = await client.post("/api/auth/login/2fa/setup", { challenge: accepted.body.challenge });
    expect(setup.status).toBe(200);
    const enabled = await client.post("/api/auth/login/2fa/enable", { challenge: accepted.body.challenge, code: codeAt(setup.body.secret, step()) });
    expect(enabled.status, enabled.text).toBe(200);
    // An admin session (12 hours), as every sign-in of the firm's side.
    expect(enabled.headers.getSetCookie().join()).toMatch(/Max-Age=43200/);

    expect((await ownerApi.get("/api/admin/staff/invitations")).body).toEqual([]);
    const me = await client.get("/api/admin/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, is_admin: true, role: "staff", rights: ["documents", "messages"] });
    expect((await client.get("/api/admin/documents")).status).toBe(200);
    expect(await client.get("/api/admin/site-content")).toMatchObject({ status: 403, body: { detail: "You need the site right for this" } });
    const team = (await ownerApi.get("/api/admin/staff")).body as Array<{ email: string; role: string; active: boolean }>;
    expect(team[0]).toMatchObject({ id: owner.id, role: "owner" });
    expect(team.find((m) => m.email === email)).toMatchObject({ role: "staff", active: true, rights: ["documents", "messages"] });
  });

  it("can be revoked until accepted: its link then stops working", async () => {
    const email = `${unique("revoked")}@example.com`;
    const invited = await ownerApi.post("/api/admin/staff", { name: "Rita Revoked", email, role: "admin" });
    expect(invited.status, invited.text).toBe(201);
    const token = await inviteToken(email);
    expect(await ownerApi.delete(`/api/admin/staff/invitations/${invited.body.id}`)).toMatchObject({ status: 200, body: { success: true } });
    expect((await ownerApi.get("/api/admin/staff/invitations")).body).toEqual([]);
    const accepted = await browser().post("/api/auth/invitations/accept", { token, username: unique("rita"), name: "Rita", password: NEW_PASSWORD });
    expect(accepted.status).toBe(404);
    expect(await server.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()).toBeUndefined();
    expect((await trail("invitation.revoke", invited.body.id))[0]).toMatchObject({ actor_id: owner.id });
    expect((await ownerApi.delete(`/api/admin/staff/invitations/${owner.id}`)).status).toBe(404);
  });

  it("can be resent until accepted: a new single-use link, the old one void at once, recorded, and limited per sender", async () => {
    const email = `${unique("resent")}@example.com`;
    const invited = await ownerApi.post("/api/admin/staff", { name: "Rob Resent", email, role: "staff", rights: ["requests"] });
    expect(invited.status, invited.text).toBe(201);
    const [first] = await inviteTokens(email, 1);
    const resent = await ownerApi.post(`/api/admin/staff/invitations/${invited.body.id}/resend`, {});
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body).toMatchObject({ id: invited.body.id, email, role: "staff", rights: ["requests"], status: "pending" });
    expect((await trail("invitation.resend", invited.body.id))[0]).toMatchObject({
      actor_id: owner.id,
      detail: { name: "Rob Resent", email, role: "staff" },
    });
    const [, second] = await inviteTokens(email, 2);
    expect(second).not.toBe(first);
    // The first link died with the resend; the new one works, once.
    expect((await browser().post("/api/auth/invitations/check", { token: first })).status).toBe(404);
    const client = browser();
    expect((await client.post("/api/auth/invitations/check", { token: second })).body).toMatchObject({ email, for_staff: true });
    const accepted = await client.post("/api/auth/invitations/accept", {
      token: second,
      username: unique("rob"),
      name: "Rob",
      password: NEW_PASSWORD,
    });
    expect(accepted.status, accepted.text).toBe(201);
    expect(await ownerApi.post(`/api/admin/staff/invitations/${invited.body.id}/resend`, {})).toMatchObject({
      status: 409,
      body: { detail: "This invitation has already been accepted: deactivate the person instead" },
    });
    // Revoked: nothing to resend. A client's invitation or an unknown id is none of the Team's.
    const revoked = await ownerApi.post("/api/admin/staff", { name: "Ray", email: `${unique("ray")}@example.com`, role: "staff" });
    expect((await ownerApi.delete(`/api/admin/staff/invitations/${revoked.body.id}`)).status).toBe(200);
    expect((await ownerApi.post(`/api/admin/staff/invitations/${revoked.body.id}/resend`, {})).status).toBe(409);
    expect((await ownerApi.post(`/api/admin/staff/invitations/${owner.id}/resend`, {})).status).toBe(404);
    expect((await ownerApi.post("/api/admin/staff/invitations/nope/resend", {})).status).toBe(422);
    // A staff member with the staff right cannot resend an invitation giving rights they lack.
    const manager = await loginClient(server.url, await createStaffMember(server.db, "staff", ["staff"]), "admin");
    const forAdmin = await ownerApi.post("/api/admin/staff", { name: "Ada", email: `${unique("ada")}@example.com`, role: "admin" });
    expect((await manager.post(`/api/admin/staff/invitations/${forAdmin.body.id}/resend`, {})).status).toBe(403);

    // Limited as an account owner's invitations are: 10 an hour by one sender, then 429.
    const sender = await loginClient(server.url, await createStaffMember(server.db, "admin"), "admin");
    const many = await sender.post("/api/admin/staff", { name: "Max", email: `${unique("max")}@example.com`, role: "staff" });
    const answers: number[] = [];
    for (let i = 0; i < 11; i++) answers.push((await sender.post(`/api/admin/staff/invitations/${many.body.id}/resend`, {})).status);
    expect(answers).toEqual([...Array(10).fill(200), 429]);
  });

  it("refuses bad input with a clear 422, and an owner role in an invitation", async () => {
    for (const body of [
      { name: "X", email: "x@example.com", role: "owner" },
      { name: "X", email: "x@example.com", role: "staff", rights: ["everything"] },
      { name: "X", email: "not-an-email", role: "staff" },
      { email: "x@example.com", role: "staff" },
    ]) {
      const res = await ownerApi.post("/api/admin/staff", body);
      expect({ status: res.status, detail: typeof res.body.detail }).toEqual({ status: 422, detail: "string" });
    }
    expect((await ownerApi.post("/api/admin/staff", { name: "X", email: owner.email, role: "staff" })).status).toBe(409);
  });
});

describe("rights", () => {
  it("each right alone opens its own domain's path and answers 403 naming the right on every other", async () => {
    for (const [right, path] of Object.entries(PATH_OF_RIGHT)) {
      const member = await createStaffMember(server.db, "staff", [right]);
      const api = await loginClient(server.url, member, "admin");
      expect((await api.get("/api/admin/me")).body).toMatchObject({ role: "staff", rights: [right] });
      const own = await api.get(path);
      expect({ right, status: own.status }).toEqual({ right, status: 200 });
      for (const [other, otherPath] of Object.entries(PATH_OF_RIGHT)) {
        if (other === right) continue;
        const res = await api.get(otherPath);
        expect({ right, otherPath, status: res.status, body: res.body }).toEqual({
          right,
          otherPath,
          status: 403,
          body: { detail: `You need the ${other} right for this` },
        });
      }
      // Any of the firm's people sees the counts and the clients list.
      expect((await api.get("/api/admin/stats")).status).toBe(200);
      expect((await api.get("/api/admin/users")).status).toBe(200);
    }
  });

  it("owner and admin pass every right; me lists them all", async () => {
    const admin = await createStaffMember(server.db, "admin");
    const api = await loginClient(server.url, admin, "admin");
    for (const path of Object.values(PATH_OF_RIGHT)) expect((await api.get(path)).status).toBe(200);
    expect((await api.get("/api/admin/me")).body).toMatchObject({ role: "admin", rights: [...STAFF_RIGHTS] });
  });

  it("a change of rights holds from the next request", async () => {
    const member = await createStaffMember(server.db, "staff", ["documents"]);
    const api = await loginClient(server.url, member, "admin");
    expect((await api.get("/api/admin/requests")).status).toBe(403);
    const changed = await ownerApi.patch(`/api/admin/staff/${member.id}`, { rights: ["documents", "requests"] });
    expect(changed.status, changed.text).toBe(200);
    expect((await api.get("/api/admin/requests")).status).toBe(200);
    const [event] = await trail("staff.update", member.id);
    expect(event).toMatchObject({ actor_id: owner.id, detail: { changes: { rights: { from: ["documents"], to: ["documents", "requests"] } } } });
  });

  it("the Inbox shows each person only the kinds of item their rights cover", async () => {
    const lead = await browser().post("/api/consultation/request", {
      name: "Lee Lead",
      email: "lead@example.com",
      phone: "555-010-2030",
      service: "tax-prep",
    });
    expect(lead.status, lead.text).toBe(200);
    const none = await loginClient(server.url, await createStaffMember(server.db, "staff", []), "admin");
    expect((await none.get("/api/admin/inbox")).body).toMatchObject({ items: [], unread: 0 });
    const clients = await loginClient(server.url, await createStaffMember(server.db, "staff", ["manage_clients"]), "admin");
    const seen = (await clients.get("/api/admin/inbox")).body.items as Array<{ kind: string }>;
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen.map((i) => i.kind))).toEqual(new Set(["consultation"]));
  });

  it("a staff member with the staff right manages staff only, handing on only rights they hold", async () => {
    const manager = await createStaffMember(server.db, "staff", ["staff", "documents"]);
    const api = await loginClient(server.url, manager, "admin");
    const admin = await createStaffMember(server.db, "admin");
    expect((await api.post("/api/admin/staff", { name: "A", email: `${unique("a")}@example.com`, role: "admin" })).status).toBe(403);
    const more = await api.post("/api/admin/staff", { name: "B", email: `${unique("b")}@example.com`, role: "staff", rights: ["site"] });
    expect(more).toMatchObject({ status: 403, body: { detail: "You may only give rights you hold yourself" } });
    expect((await api.patch(`/api/admin/staff/${admin.id}`, { active: false })).status).toBe(403);
    expect(
      (await api.post("/api/admin/staff", { name: "C", email: `${unique("c")}@example.com`, role: "staff", rights: ["documents"] })).status,
    ).toBe(201);
  });
});

describe("deactivation", () => {
  it("ends a live session at its next request, refuses sign-in as a wrong password is, and keeps the history", async () => {
    const member = await createStaffMember(server.db, "staff", ["documents"]);
    const api = await loginClient(server.url, member, "admin");
    expect((await api.get("/api/admin/documents")).status).toBe(200);
    const off = await ownerApi.patch(`/api/admin/staff/${member.id}`, { active: false });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ id: member.id, active: false });
    expect((await api.get("/api/admin/documents")).status).toBe(401);
    const again = await browser().post("/api/admin/login", { username: member.username, password: DEFAULT_PASSWORD });
    expect(again).toMatchObject({ status: 401, body: { detail: "Invalid username or password" } });
    expect((await signIn(browser(), member, "client")).status).toBe(401);
    // The person and what they did stay; the trail names who deactivated them.
    expect(await server.db.selectFrom("users").select("id").where("id", "=", member.id).executeTakeFirst()).toBeDefined();
    expect((await trail("staff.update", member.id))[0]).toMatchObject({
      actor_id: owner.id,
      detail: { changes: { active: { from: true, to: false } } },
    });
    expect(
      await server.db.selectFrom("activity_events").select("id").where("actor_id", "=", member.id).where("action", "=", "auth.sign_in").execute(),
    ).not.toHaveLength(0);
    // Active again: they sign in again. Admin users still cannot be deleted.
    expect((await ownerApi.patch(`/api/admin/staff/${member.id}`, { active: true })).status).toBe(200);
    await loginClient(server.url, member, "admin");
    expect((await ownerApi.delete(`/api/admin/users/${member.id}`)).status).toBe(400);
    expect(await server.db.selectFrom("users").select("id").where("id", "=", member.id).executeTakeFirst()).toBeDefined();
  });

  it("is refused for oneself", async () => {
    const admin = await createStaffMember(server.db, "admin");
    const api = await loginClient(server.url, admin, "admin");
    expect(await api.patch(`/api/admin/staff/${admin.id}`, { active: false })).toMatchObject({
      status: 409,
      body: { detail: "You cannot deactivate yourself" },
    });
  });
});

describe("the owner", () => {
  it("is one, cannot be deactivated or demoted, and hands ownership on by PATCH role owner, theirs alone", async () => {
    const admin = await createStaffMember(server.db, "admin");
    const adminApi = await loginClient(server.url, admin, "admin");
    const stays = "The owner cannot be deactivated or demoted: transfer ownership first";
    expect(await adminApi.patch(`/api/admin/staff/${owner.id}`, { active: false })).toMatchObject({ status: 409, body: { detail: stays } });
    expect(await ownerApi.patch(`/api/admin/staff/${owner.id}`, { role: "admin" })).toMatchObject({ status: 409, body: { detail: stays } });
    expect(await adminApi.patch(`/api/admin/staff/${admin.id}`, { role: "owner" })).toMatchObject({
      status: 403,
      body: { detail: "Only the firm's owner may transfer ownership" },
    });
    await expect(createStaffMember(server.db, "owner")).rejects.toThrow(/users_one_owner_key/);

    const moved = await ownerApi.patch(`/api/admin/staff/${admin.id}`, { role: "owner" });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ id: admin.id, role: "owner" });
    expect((await ownerApi.get("/api/admin/me")).body.role).toBe("admin");
    const owners = await server.db.selectFrom("users").select("id").where("staff_role", "=", "owner").execute();
    expect(owners).toEqual([{ id: admin.id }]);
    expect((await trail("staff.transfer_ownership", admin.id))[0]).toMatchObject({ actor_id: owner.id });
    // And back, so the other tests' owner is the owner again.
    expect((await adminApi.patch(`/api/admin/staff/${owner.id}`, { role: "owner" })).status).toBe(200);
  });

  it("is not a client's: a client is no staff member to change", async () => {
    const client = await createUser(server.db);
    expect(await ownerApi.patch(`/api/admin/staff/${client.id}`, { active: false })).toMatchObject({
      status: 404,
      body: { detail: "Staff member not found" },
    });
  });

  it("is the first admin npm run create-admin makes; later ones are admins", async () => {
    const database = await createTestDatabase();
    try {
      // The embedded database's run of the script is test/server/embedded-boot.test.ts.
      if (!database.url) return;
      const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "warn" };
      const create = (username: string) =>
        promisify(execFile)(
          path.resolve("node_modules/.bin/tsx"),
          ["scripts/create-admin.ts", "--username", username, "--email", `${username}@firm.test`, "--password", NEW_PASSWORD],
          { env },
        );
      expect((await create("first_owner")).stdout).toContain("Admin first_owner created as the firm's owner");
      expect((await create("second_admin")).stdout).toMatch(/Admin second_admin created\. Sign in/);
      // Run again for the owner: still the one owner.
      await create("first_owner");
      const roles = await database.db.selectFrom("users").select(["username", "staff_role"]).orderBy("created_at").execute();
      expect(roles).toEqual([
        { username: "first_owner", staff_role: "owner" },
        { username: "second_admin", staff_role: "admin" },
      ]);
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe("the trail", () => {
  it("records firm settings changes naming who made them, and filters by the person who acted (also the CSV)", async () => {
    const admin = await createStaffMember(server.db, "staff", ["settings", "activity"]);
    const api = await loginClient(server.url, admin, "admin");
    expect((await api.put("/api/admin/registration", { registration: "invite_only" })).status).toBe(200);
    expect((await api.put("/api/admin/security-settings", { require_client_two_factor: false })).status).toBe(200);
    expect((await api.put("/api/admin/notification-settings", { include_document_names_in_emails: true })).status).toBe(200);
    expect((await api.put("/api/admin/activity-settings", { staff_names_for_clients: false })).status).toBe(200);
    expect((await api.put("/api/admin/registration", { registration: "open" })).status).toBe(200);

    const mine = await api.get(`/api/admin/activity?actor_id=${admin.id}&action=settings.update`);
    expect(mine.status).toBe(200);
    const settings = (mine.body.items as Array<{ actor_label: string; detail: { setting: string } }>).map((e) => e.detail.setting);
    expect(settings).toEqual([
      "registration",
      "staff_names_for_clients",
      "include_document_names_in_emails",
      "require_client_two_factor",
      "registration",
    ]);
    const all = await api.get(`/api/admin/activity?actor_id=${admin.id}`);
    // The firm's trail names people by their names (issue 48); the CSV keeps the recorded login name.
    expect((all.body.items as Array<{ actor_label: string }>).every((e) => e.actor_label === admin.name)).toBe(true);
    const csv = await api.get(`/api/admin/activity.csv?actor_id=${admin.id}`);
    expect(csv.status).toBe(200);
    expect(
      csv.text
        .trim()
        .split("\n")
        .slice(1)
        .every((line) => line.includes(admin.username!)),
    ).toBe(true);
    expect((await api.get(`/api/admin/activity.csv?actor_id=${owner.id}`)).text).not.toContain(admin.username!);
    expect(await api.get("/api/admin/activity?actor_id=nobody")).toMatchObject({ status: 422, body: { detail: "actor_id must be a user id" } });
    expect((await api.get("/api/admin/activity.csv?actor_id=nobody")).status).toBe(422);
  });
});
