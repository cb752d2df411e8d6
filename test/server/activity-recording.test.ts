// The activity trail (issue 18) as sign-ins, sign-outs, password changes and resets, site edits and
// account deletions write it: each read back from activity_events after the request over HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateToken, hashToken } from "../../server/auth/session.ts";
import { createUser, DEFAULT_PASSWORD, signIn, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let admin: UserFixture;
const USER_AGENT = "ActivityTrailTest/1.0";

beforeAll(async () => {
  server = await startTestServer();
  admin = await createUser(server.deps.db, { is_admin: true });
});
afterAll(() => server.close());

const browser = () => new ApiClient(server.url, { Origin: server.url, "User-Agent": USER_AGENT });

async function signedIn(user: UserFixture, portal: "client" | "admin" = "client"): Promise<ApiClient> {
  const client = browser();
  const res = await signIn(client, user, portal);
  expect(res.status).toBe(200);
  return client;
}

/** The events of an action that name `who` as client or actor, oldest first. */
async function events(action: string, who: string) {
  return server.deps.db
    .selectFrom("activity_events")
    .selectAll()
    .select("account_id as client_id")
    .where("action", "=", action)
    .where((eb) => eb.or([eb("account_id", "=", who), eb("actor_id", "=", who)]))
    .orderBy("id")
    .execute();
}

describe("sign-ins", () => {
  it("records a client's sign-in with its address and browser, and the sign-out", async () => {
    const user = await createUser(server.deps.db);
    const client = await signedIn(user);
    const [row, ...more] = await events("auth.sign_in", user.id);
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      client_id: user.id,
      client_label: user.username,
      actor_id: user.id,
      actor_role: "client",
      actor_label: user.username,
      user_agent: USER_AGENT,
      detail: { portal: "client" },
    });
    expect(row!.ip).toBeTruthy();

    expect((await client.post("/api/auth/logout")).status).toBe(200);
    expect(await events("auth.sign_out", user.id)).toMatchObject([{ client_id: user.id, actor_id: user.id, actor_role: "client" }]);
  });

  it("records an admin's sign-in after the second factor as the firm's own (no client)", async () => {
    await signedIn(admin, "admin");
    const rows = await events("auth.sign_in", admin.id);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.at(-1)).toMatchObject({
      client_id: null,
      actor_id: admin.id,
      actor_role: "admin",
      user_agent: USER_AGENT,
      detail: { portal: "admin" },
    });
  });

  it("records a wrong password, an unknown name and a wrong code, never the password tried", async () => {
    const user = await createUser(server.deps.db);
    const wrong = "Wrong-Password-Tried-91";
    expect((await browser().post("/api/auth/login", { username: user.username, password: wrong })).status).toBe(401);
    const unknown = `nobody_${generateToken().slice(0, 8)}`;
    expect((await browser().post("/api/auth/login", { username: unknown, password: wrong })).status).toBe(401);

    const [failed, ...more] = await events("auth.sign_in_failed", user.id);
    expect(more).toEqual([]);
    expect(failed).toMatchObject({
      client_id: user.id,
      actor_id: user.id,
      actor_role: "client",
      actor_label: user.username,
      detail: { reason: "wrong_password" },
      user_agent: USER_AGENT,
    });
    expect(JSON.stringify(failed)).not.toContain(wrong);
    const stranger = await server.deps.db
      .selectFrom("activity_events")
      .selectAll()
      .select("account_id as client_id")
      .where("actor_label", "=", unknown)
      .execute();
    expect(stranger).toMatchObject([{ action: "auth.sign_in_failed", client_id: null, actor_id: null, detail: { reason: "unknown_account" } }]);
    expect(await events("auth.sign_in", user.id)).toEqual([]);

    const twoFactor = await createUser(server.deps.db, { two_factor: true });
    const challenge = await browser().post("/api/auth/login", { username: twoFactor.username, password: twoFactor.password });
    expect(challenge.body.two_factor_required).toBe(true);
    expect((await browser().post("/api/auth/login/2fa", { challenge: challenge.body.challenge, code: "000000" })).status).toBe(401);
    expect(await events("auth.sign_in_failed", twoFactor.id)).toMatchObject([{ client_id: twoFactor.id, detail: { reason: "wrong_code" } }]);
  });
});

describe("passwords", () => {
  it("records a password change (and not the new session it hands out as a sign-in)", async () => {
    const user = await createUser(server.deps.db);
    const client = await signedIn(user);
    const res = await client.post("/api/auth/change-password", { current_password: DEFAULT_PASSWORD, new_password: "Fresh-Lantern-Meadow-58" });
    expect(res.status).toBe(200);
    expect(await events("auth.password_change", user.id)).toMatchObject([{ client_id: user.id, actor_id: user.id }]);
    expect(await events("auth.sign_in", user.id)).toHaveLength(1);
    expect(JSON.stringify(await events("auth.password_change", user.id))).not.toContain("Fresh-Lantern");
  });

  it("records a completed password reset as the account's own act", async () => {
    const user = await createUser(server.deps.db);
    const token = generateToken();
    await server.deps.db
      .insertInto("password_reset_tokens")
      .values({ token_hash: hashToken(token), user_id: user.id, expires_at: new Date(Date.now() + 3_600_000), created_at: new Date() })
      .execute();
    const res = await browser().post("/api/auth/reset-password", { token, new_password: "Copper-Kettle-River-63" });
    expect(res.status).toBe(200);
    expect(await events("auth.password_reset", user.id)).toMatchObject([
      { client_id: user.id, actor_id: user.id, actor_role: "client", actor_label: user.username, user_agent: USER_AGENT },
    ]);
  });
});

describe("the firm's edits", () => {
  it("records site content and testimonial edits by the admin", async () => {
    const client = await signedIn(admin, "admin");
    expect((await client.put("/api/admin/site-content/hero/title", { value: "Books kept right" })).status).toBe(200);
    expect((await client.delete("/api/admin/site-content/hero/title")).status).toBe(200);
    const testimonials = [{ text: "Clear and quick.", author: "Ann Perkins", business: "Pawnee Bakery" }];
    expect((await client.put("/api/admin/testimonials", { testimonials })).status).toBe(200);
    const rows = (await events("site.update", admin.id)).slice(-3);
    expect(rows).toMatchObject([
      { client_id: null, actor_role: "admin", detail: { section: "hero", key: "title" } },
      { client_id: null, detail: { section: "hero", key: "title", reset: true } },
      { client_id: null, detail: { testimonials: 1 } },
    ]);
  });
});

describe("account deletion", () => {
  it("keeps the event of an admin deleting a client after the account is gone", async () => {
    const user = await createUser(server.deps.db);
    const client = await signedIn(admin, "admin");
    expect((await client.delete(`/api/admin/users/${user.id}`)).status).toBe(200);
    expect(await server.deps.db.selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeUndefined();
    expect(await events("user.delete", user.id)).toMatchObject([
      { client_id: user.id, client_label: user.username, actor_id: admin.id, actor_role: "admin", target_id: user.id, detail: { by: "admin" } },
    ]);
  });

  it("keeps the event of a client deleting their own account", async () => {
    const user = await createUser(server.deps.db);
    const client = await signedIn(user);
    expect((await client.post("/api/auth/delete-account", { password: DEFAULT_PASSWORD })).status).toBe(200);
    expect(await events("user.delete", user.id)).toMatchObject([
      { client_id: user.id, actor_id: user.id, actor_role: "client", detail: { by: "self" } },
    ]);
    // Earlier events of the account stay too.
    expect(await events("auth.sign_in", user.id)).toHaveLength(1);
  });
});
