// Client accounts (issue 32): the accounts a person reaches, the current one per session, a
// household whose two people see the same documents, and the rules: a member without portal access
// or a removed one reaches nothing of the account on their next request, and one account's data
// never shows in another's lists, search, ZIPs, usage or activity. The people are linked to
// accounts in the database here: the firm's contacts paths are built on top of this.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, DEFAULT_PASSWORD, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

let server: TestServer;
let smtp: TestSmtpServer;
let admin: ApiClient;
let mariaUser: UserFixture;
let jamesUser: UserFixture;
let maria: ApiClient;
let james: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
  mariaUser = await createUser(server.db, { name: "Maria Garcia" });
  jamesUser = await createUser(server.db, { name: "James Garcia" });
  maria = await loginClient(server.url, mariaUser);
  james = await loginClient(server.url, jamesUser);
  // James joins Maria's account as a member (his own stays his).
  await server.db.insertInto("account_contacts").values({ account_id: mariaUser.id, user_id: jamesUser.id, role: "member" }).execute();
});
afterAll(async () => {
  await server?.close();
  await smtp?.stop();
});

async function upload(client: ApiClient, filename: string, content: string) {
  const form = new FormData();
  form.append("file", new Blob([new TextEncoder().encode(content)], { type: "text/plain" }), filename);
  const res = await client.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

const names = (items: { original_filename: string }[]) => items.map((d) => d.original_filename).sort();

describe("the accounts a person reaches", () => {
  it("lists them with the person's role, owned first, and the owned one is current after sign-in", async () => {
    const res = await james.get("/api/accounts");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: jamesUser.id, name: jamesUser.username, kind: "individual", role: "owner" },
      { id: mariaUser.id, name: mariaUser.username, kind: "individual", role: "member" },
    ]);
    await upload(james, "Own 1099.txt", "james's own");
    expect(names((await james.get("/api/documents/root")).body)).toEqual(["Own 1099.txt"]);
  });

  it("switches to an account the person reaches, and answers 404 for any other", async () => {
    const other = await createUser(server.db);
    const refused = await james.post("/api/accounts/switch", { account_id: other.id });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ detail: "Account not found" });
    expect((await james.post("/api/accounts/switch", { account_id: "not-a-uuid" })).status).toBe(422);
    const switched = await james.post("/api/accounts/switch", { account_id: mariaUser.id });
    expect(switched.status, switched.text).toBe(200);
    expect(switched.body).toEqual({ id: mariaUser.id, name: mariaUser.username, kind: "individual", role: "member" });
  });
});

describe("making accounts", () => {
  it("registration gives the person an individual account of their own, named after them, with an id of its own", async () => {
    const username = `reg_${randomBytes(3).toString("hex")}`;
    const registered = await new ApiClient(server.url).post("/api/auth/register", {
      username,
      email: `${username}@example.com`,
      name: "Ana Lopez",
      password: DEFAULT_PASSWORD,
    });
    expect(registered.status, registered.text).toBe(200);
    const ana = await loginClient(server.url, { username, password: DEFAULT_PASSWORD });
    const me = (await ana.get("/api/auth/me")).body as { id: string };
    const accounts = (await ana.get("/api/accounts")).body as { id: string }[];
    expect(accounts).toEqual([{ id: expect.any(String), name: "Ana Lopez", kind: "individual", role: "owner" }]);
    expect(accounts[0]!.id).not.toBe(me.id);
    // The firm's old paths find it by the person.
    expect((await admin.get(`/api/admin/users/${me.id}/documents`)).status).toBe(200);
  });

  it("the firm's invitation makes the account at once: the firm asks for documents before the invitee accepts", async () => {
    const email = `rosa.${randomBytes(4).toString("hex")}@example.com`;
    const invited = await admin.post("/api/admin/invitations", { name: "Rosa Diaz", email });
    expect(invited.status, invited.text).toBe(201);
    const accountId = invited.body.account_id as string;
    expect(accountId).toEqual(expect.any(String));
    const request = await admin.post("/api/admin/requests", { account_id: accountId, title: "Prior-year return" });
    expect(request.status, request.text).toBe(201);

    const deadline = Date.now() + 20_000;
    let token: string | undefined;
    while (!token) {
      const mail = smtp.messages.find((m) => m.to.includes(email));
      token = mail ? /\?invite=([a-z2-7]+)/.exec(mail.text)?.[1] : undefined;
      if (!token && Date.now() > deadline) throw new Error("no invitation mail");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const rosa = new ApiClient(server.url);
    const accepted = await rosa.post("/api/auth/invitations/accept", {
      token,
      username: `rosa_${randomBytes(3).toString("hex")}`,
      name: "Rosa Diaz",
      password: DEFAULT_PASSWORD,
    });
    expect(accepted.status, accepted.text).toBe(201);
    expect((await rosa.get("/api/accounts")).body).toEqual([{ id: accountId, name: "Rosa Diaz", kind: "individual", role: "owner" }]);
    expect((await rosa.get("/api/requests")).body.map((r: { title: string }) => r.title)).toEqual(["Prior-year return"]);
  });
});

describe("a household", () => {
  it("shows both people the same folders and documents, each upload recording who made it", async () => {
    await james.post("/api/accounts/switch", { account_id: mariaUser.id });
    const folder = await maria.post("/api/folders", { name: "2025 Taxes" });
    expect(folder.status, folder.text).toBe(201);
    await upload(maria, "W-2 Maria.txt", "maria's w-2");
    const jamesUpload = await upload(james, "W-2 James.txt", "james's w-2");

    for (const client of [maria, james]) {
      expect(names((await client.get("/api/documents/root")).body)).toEqual(["W-2 James.txt", "W-2 Maria.txt"]);
      expect((await client.get("/api/folders")).body.map((f: { name: string }) => f.name)).toEqual(["2025 Taxes"]);
    }
    const row = await server.db
      .selectFrom("documents")
      .select(["account_id", "uploaded_by"])
      .where("id", "=", jamesUpload.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ account_id: mariaUser.id, uploaded_by: jamesUser.id });
    // A contact's upload is the client's own, not the firm's.
    expect((await maria.get("/api/documents/root")).body.every((d: { from_firm: boolean }) => !d.from_firm)).toBe(true);
    expect((await maria.get(`/api/documents/${jamesUpload.id}/download`)).text).toBe("james's w-2");
  });

  it("never shows another account's data: lists, search, ZIP, usage, activity", async () => {
    await james.post("/api/accounts/switch", { account_id: mariaUser.id });
    const own = (await server.db.selectFrom("documents").select(["id"]).where("account_id", "=", jamesUser.id).executeTakeFirstOrThrow()).id;

    expect(names((await james.get("/api/documents/root")).body)).not.toContain("Own 1099.txt");
    expect(names((await james.get("/api/documents/search?q=1099")).body)).toEqual([]);
    expect((await james.get(`/api/documents/${own}/download`)).status).toBe(404);
    const zip = await james.get("/api/folders/root/download");
    expect(zip.status).toBe(200);
    expect(zip.text).toContain("W-2 Maria.txt");
    expect(zip.text).not.toContain("Own 1099.txt");
    const usage = (await james.get("/api/documents/usage")).body;
    expect(usage.used_bytes).toBe("maria's w-2".length + "james's w-2".length);
    const trail = (await james.get("/api/activity?limit=100")).body.items as { target_id: string | null }[];
    expect(trail.some((e) => e.target_id === own)).toBe(false);
    // And back in his own account, Maria's documents are not there.
    await james.post("/api/accounts/switch", { account_id: jamesUser.id });
    expect(names((await james.get("/api/documents/root")).body)).toEqual(["Own 1099.txt"]);
    expect(names((await james.get("/api/documents/search?q=W-2")).body)).toEqual([]);
  });
});

describe("losing an account", () => {
  it("a member without portal access reaches none of it, and does not see it listed", async () => {
    const nina = await createUser(server.db);
    const ninaApi = await loginClient(server.url, nina);
    // Nina's only link is to Maria's account, without portal access.
    await server.db.deleteFrom("accounts").where("id", "=", nina.id).execute();
    await server.db
      .insertInto("account_contacts")
      .values({ account_id: mariaUser.id, user_id: nina.id, role: "member", portal_access: false })
      .execute();
    expect((await ninaApi.get("/api/accounts")).body).toEqual([]);
    for (const path of [
      "/api/documents/root",
      "/api/folders",
      "/api/trash",
      "/api/documents/usage",
      "/api/messages",
      "/api/requests",
      "/api/activity",
    ]) {
      const res = await ninaApi.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toEqual({ detail: "No client account is open for you" });
    }
    expect((await ninaApi.post("/api/accounts/switch", { account_id: mariaUser.id })).status).toBe(404);
  });

  it("removal ends access on the next request: the account's documents answer 404", async () => {
    const sam = await createUser(server.db);
    const samApi = await loginClient(server.url, sam);
    await server.db.insertInto("account_contacts").values({ account_id: mariaUser.id, user_id: sam.id, role: "member" }).execute();
    expect((await samApi.post("/api/accounts/switch", { account_id: mariaUser.id })).status).toBe(200);
    const document = (await samApi.get("/api/documents/root")).body[0] as { id: string };
    expect((await samApi.get(`/api/documents/${document.id}/download`)).status).toBe(200);

    await server.db.deleteFrom("account_contacts").where("account_id", "=", mariaUser.id).where("user_id", "=", sam.id).execute();
    expect((await samApi.get(`/api/documents/${document.id}/download`)).status).toBe(404);
    // The session falls back to the account Sam still has: none of Maria's there.
    expect((await samApi.get("/api/documents/root")).body).toEqual([]);
    expect((await samApi.get("/api/accounts")).body.map((a: { id: string }) => a.id)).toEqual([sam.id]);
  });
});

/** A client's message stream: whether the server has ended it. */
async function openStream(api: ApiClient) {
  const abort = new AbortController();
  const res = await fetch(new URL("/api/messages/events", server.url), {
    headers: { Accept: "text/event-stream", Cookie: [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const ended = (async () => {
    try {
      for await (const chunk of res.body!) if (new TextDecoder().decode(chunk).includes("event: ready")) ready();
    } catch {
      // Closed by the test.
    }
  })();
  await isReady;
  const endsWithin = (ms: number) => Promise.race([ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
  return { endsWithin, close: () => abort.abort() };
}

describe("message streams", () => {
  it("end for a person who loses the account, and only for that account", async () => {
    const kim = await createUser(server.db);
    await server.db.insertInto("account_contacts").values({ account_id: mariaUser.id, user_id: kim.id, role: "member" }).execute();
    const household = await loginClient(server.url, kim);
    expect((await household.post("/api/accounts/switch", { account_id: mariaUser.id })).status).toBe(200);
    const own = await loginClient(server.url, kim);
    const householdStream = await openStream(household);
    const ownStream = await openStream(own);
    const mariaStream = await openStream(maria);
    try {
      await server.db
        .updateTable("account_contacts")
        .set({ portal_access: false })
        .where("account_id", "=", mariaUser.id)
        .where("user_id", "=", kim.id)
        .execute();
      expect(await householdStream.endsWithin(5000)).toBe(true);
      expect(await ownStream.endsWithin(300)).toBe(false);
      expect(await mariaStream.endsWithin(300)).toBe(false);
    } finally {
      for (const stream of [householdStream, ownStream, mariaStream]) stream.close();
    }
  });
});

describe("the firm's old paths", () => {
  it("resolve a person to their one account, and answer 409 for a person owning several", async () => {
    expect((await admin.get(`/api/admin/users/${mariaUser.id}/documents`)).status).toBe(200);
    // James owns his own account and is a member of Maria's: his own is the one meant.
    const his = await admin.get(`/api/admin/users/${jamesUser.id}/documents`);
    expect(his.status).toBe(200);
    expect(names(his.body)).toEqual(["Own 1099.txt"]);

    // An owner of Maria's account too, Pat still names by their id the account that has it.
    const pat = await createUser(server.db);
    await server.db.insertInto("account_contacts").values({ account_id: mariaUser.id, user_id: pat.id, role: "owner" }).execute();
    expect((await admin.get(`/api/admin/users/${pat.id}/documents`)).status).toBe(200);
    // Without an account of that id (one made later has an id of its own), owning two is ambiguous.
    await server.db.deleteFrom("accounts").where("id", "=", pat.id).execute();
    const own = await server.db.insertInto("accounts").values({ name: "Pat's shop", kind: "business" }).returning("id").executeTakeFirstOrThrow();
    await server.db.insertInto("account_contacts").values({ account_id: own.id, user_id: pat.id, role: "owner" }).execute();
    const ambiguous = await admin.get(`/api/admin/users/${pat.id}/documents`);
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body).toEqual({ detail: "This person belongs to several accounts: use account_id" });
    // A request for the account itself, by account_id, works.
    const request = await admin.post("/api/admin/requests", { account_id: mariaUser.id, title: "2025 1099-INT" });
    expect(request.status, request.text).toBe(201);
    expect((await admin.post("/api/admin/requests", { user_id: pat.id, title: "x" })).status).toBe(409);
    expect((await maria.get("/api/requests")).body.map((r: { title: string }) => r.title)).toContain("2025 1099-INT");
  });

  it("deleting a person keeps an account another contact reaches, and deletes the one they were alone in", async () => {
    const lee = await createUser(server.db);
    await server.db.insertInto("account_contacts").values({ account_id: mariaUser.id, user_id: lee.id, role: "member" }).execute();
    const leeApi = await loginClient(server.url, lee);
    await upload(leeApi, "Lee alone.txt", "lee");
    expect((await admin.request("DELETE", `/api/admin/users/${lee.id}`)).status).toBe(200);
    expect(await server.db.selectFrom("accounts").select("id").where("id", "=", lee.id).execute()).toEqual([]);
    expect(await server.db.selectFrom("documents").select("id").where("account_id", "=", lee.id).execute()).toEqual([]);
    expect(names((await maria.get("/api/documents/root")).body)).toContain("W-2 Maria.txt");
  });
});
