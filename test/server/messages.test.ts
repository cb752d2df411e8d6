/*
 * Secure messages: one conversation per client with the firm. A client sees only their own, and
 * attaches only their own live documents; text is limited to 10,000 characters; unread counts and
 * read marks work for both sides; every message is in the trail; deleting the client deletes the
 * conversation; the email after 5 minutes unread arrives at the real SMTP test server (the job's
 * wait is moved to now instead of waited for), once per burst and not when read meanwhile.
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const FIRM_EMAIL = "office@harborline.test";
const MINUTE = 60 * 1000;
const SECRET = "my SSN is 078-05-1120";

let smtp: TestSmtpServer;
let server: TestServer;
let admin: ApiClient;
let adminUser: UserFixture;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, FIRM_EMAIL } });
  adminUser = await createUser(server.db, { is_admin: true, name: "Morgan Firm" });
  admin = await loginClient(server.url, adminUser, "admin");
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

async function client(name = "Rowan Ellis"): Promise<{ user: UserFixture; api: ApiClient }> {
  const user = await createUser(server.db, { name });
  await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
  return { user, api: await loginClient(server.url, user) };
}

async function upload(api: ApiClient, name = "w2.txt", folderId?: string): Promise<string> {
  const form = new FormData();
  if (folderId) form.append("folder_id", folderId);
  form.append("file", new Blob([randomBytes(32).toString("hex")], { type: "text/plain" }), name);
  const res = await api.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function send(api: ApiClient, path: string, body: Record<string, unknown>) {
  const res = await api.post(path, body);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; text: string; sender_role: string; sender_name: string | null; documents: Array<{ id: string }> };
}

describe("the client's conversation", () => {
  it("sends and lists newest last with attachments, keeping line breaks", async () => {
    const { user, api } = await client();
    const doc = await upload(api, "2026 W-2.txt");
    const first = await send(api, "/api/messages", { text: "  Hello,\nhere is my W-2.\n\nThanks ", document_ids: [doc] });
    expect(first).toMatchObject({ text: "Hello,\nhere is my W-2.\n\nThanks", sender_role: "client", sender_name: "Rowan Ellis" });
    expect(first.documents).toEqual([expect.objectContaining({ id: doc, original_filename: "2026 W-2.txt" })]);
    await send(admin, `/api/admin/messages/${user.id}`, { text: "Got it, thanks." });
    const only = await send(api, "/api/messages", { document_ids: [doc] });
    expect(only.text).toBe("");

    const list = await api.get("/api/messages");
    expect(list.status, list.text).toBe(200);
    expect(list.body.map((m: { text: string }) => m.text)).toEqual(["Hello,\nhere is my W-2.\n\nThanks", "Got it, thanks.", ""]);
    expect(list.body[1]).toMatchObject({ sender_role: "admin", sender_name: "Morgan Firm" });
    expect(list.headers.get("x-total-count")).toBe("3");

    const firm = await admin.get(`/api/admin/messages/${user.id}`);
    expect(firm.status, firm.text).toBe(200);
    expect(firm.body.map((m: { id: string }) => m.id)).toEqual(list.body.map((m: { id: string }) => m.id));
  });

  it("pages back through older messages with the cursor", async () => {
    const { api } = await client();
    for (let i = 1; i <= 5; i++) await send(api, "/api/messages", { text: `message ${i}` });
    const latest = await api.get("/api/messages?limit=2");
    expect(latest.body.map((m: { text: string }) => m.text)).toEqual(["message 4", "message 5"]);
    const cursor = latest.headers.get("x-next-cursor");
    expect(cursor).toMatch(/^\d+$/);
    const older = await api.get(`/api/messages?limit=2&cursor=${cursor}`);
    expect(older.body.map((m: { text: string }) => m.text)).toEqual(["message 2", "message 3"]);
    const oldest = await api.get(`/api/messages?limit=2&cursor=${older.headers.get("x-next-cursor")}`);
    expect(oldest.body.map((m: { text: string }) => m.text)).toEqual(["message 1"]);
    expect(oldest.headers.get("x-next-cursor")).toBeNull();
  });

  it("limits the text to 10,000 characters and refuses an empty message", async () => {
    const { api } = await client();
    expect((await api.post("/api/messages", { text: "x".repeat(10_000) })).status).toBe(201);
    const long = await api.post("/api/messages", { text: "x".repeat(10_001) });
    expect(long.status).toBe(422);
    expect(long.body.detail).toMatch(/10,000 characters/);
    const empty = await api.post("/api/messages", { text: "  \n " });
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toMatch(/Write a message or attach a document/);
    expect((await api.post("/api/messages", {})).status).toBe(422);
    expect((await api.post("/api/messages", { text: "hi", document_ids: ["nope"] })).status).toBe(422);
    expect((await api.post("/api/messages", { text: 42 })).status).toBe(422);
  });
});

describe("ownership", () => {
  it("a client sees only their own conversation and attaches only their own live documents", async () => {
    const a = await client("Avery Owner");
    const b = await client("Blake Other");
    const theirs = await upload(b.api, "blake.txt");
    await send(b.api, "/api/messages", { text: "Blake's private question" });

    const foreign = await a.api.post("/api/messages", { text: "look", document_ids: [theirs] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe("Document not found");
    // Nothing was written by the refused message.
    expect((await a.api.get("/api/messages")).body).toEqual([]);

    const trashed = await upload(a.api, "old.txt");
    expect((await a.api.request("DELETE", `/api/documents/${trashed}`)).status).toBe(200);
    expect((await a.api.post("/api/messages", { text: "x", document_ids: [trashed] })).status).toBe(404);

    // The firm attaching: only that client's documents.
    expect((await admin.post(`/api/admin/messages/${a.user.id}`, { text: "x", document_ids: [theirs] })).status).toBe(404);
    expect((await admin.post(`/api/admin/messages/${b.user.id}`, { text: "Here", document_ids: [theirs] })).status).toBe(201);

    // A client cannot reach the firm's routes, nor name another client.
    expect((await a.api.get(`/api/admin/messages/${b.user.id}`)).status).toBe(403);
    expect((await a.api.post(`/api/admin/messages/${b.user.id}`, { text: "hi" })).status).toBe(403);
    expect((await a.api.get("/api/messages")).body).toEqual([]);
    // The firm names clients only: an admin or an unknown id is not a conversation.
    expect((await admin.get(`/api/admin/messages/${adminUser.id}`)).status).toBe(404);
    expect((await admin.post(`/api/admin/messages/00000000-0000-4000-8000-000000000000`, { text: "hi" })).status).toBe(404);
  });

  it("the Messages folder is made once in the client's space, and a document uploaded there can be attached", async () => {
    const { user, api } = await client();
    const folder = await api.post("/api/messages/folder", {});
    expect(folder.status, folder.text).toBe(200);
    expect(folder.body.name).toBe("Messages");
    expect((await api.post("/api/messages/folder", {})).body.id).toBe(folder.body.id);
    const firmFolder = await admin.post(`/api/admin/messages/${user.id}/folder`, {});
    expect(firmFolder.body.id).toBe(folder.body.id);

    const form = new FormData();
    form.append("folder_id", folder.body.id);
    form.append("file", new Blob(["engagement"], { type: "text/plain" }), "engagement.txt");
    const shared = await admin.request("POST", `/api/admin/users/${user.id}/documents`, { body: form });
    expect(shared.status, shared.text).toBe(201);
    const message = await send(admin, `/api/admin/messages/${user.id}`, { text: "Please sign", document_ids: [shared.body.id] });
    expect(message.documents.map((d) => d.id)).toEqual([shared.body.id]);
    // The client can download what the firm attached, as any document of theirs.
    const download = await api.request("GET", `/api/documents/${shared.body.id}/download`);
    expect(download.status).toBe(200);
    const listed = await api.get(`/api/documents/folder/${folder.body.id}`);
    expect(listed.body.map((d: { id: string }) => d.id)).toContain(shared.body.id);
  });
});

describe("unread counts and read marks", () => {
  it("counts the other side's messages until read, both ways", async () => {
    const { user, api } = await client("Casey Unread");
    const before = (await admin.get("/api/admin/messages/unread")).body.unread as number;
    await send(api, "/api/messages", { text: "one" });
    await send(api, "/api/messages", { text: "two" });
    expect((await api.get("/api/messages/unread")).body).toEqual({ unread: 0 });
    expect((await admin.get("/api/admin/messages/unread")).body.unread).toBe(before + 2);
    const listed = await admin.get("/api/admin/messages");
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body[0]).toMatchObject({ user_id: user.id, client_name: "Casey Unread", unread: 2, last_text: "two", last_sender_role: "client" });

    await send(admin, `/api/admin/messages/${user.id}`, { text: "answer" });
    // Answering is reading: the firm's mark moves to its own message.
    expect((await admin.get("/api/admin/messages")).body[0]).toMatchObject({
      user_id: user.id,
      unread: 0,
      last_text: "answer",
      last_sender_role: "admin",
    });
    expect((await api.get("/api/messages/unread")).body).toEqual({ unread: 1 });

    await send(api, "/api/messages", { text: "three" });
    expect((await admin.get("/api/admin/messages")).body[0]).toMatchObject({ user_id: user.id, unread: 1 });
    const firmRead = await admin.post(`/api/admin/messages/${user.id}/read`, {});
    expect(firmRead.status, firmRead.text).toBe(200);
    expect(firmRead.body.unread).toBe(before);
    expect((await admin.get("/api/admin/messages")).body[0].unread).toBe(0);
    // The client's own message marked the firm's answer read for the client.
    expect((await api.get("/api/messages/unread")).body).toEqual({ unread: 0 });
    await send(admin, `/api/admin/messages/${user.id}`, { text: "two more" });
    await send(admin, `/api/admin/messages/${user.id}`, { text: "and this" });
    expect((await api.get("/api/messages/unread")).body).toEqual({ unread: 2 });

    const clientRead = await api.post("/api/messages/read", {});
    expect(clientRead.status, clientRead.text).toBe(200);
    expect(clientRead.body).toEqual({ unread: 0 });
    expect((await api.get("/api/messages/unread")).body).toEqual({ unread: 0 });
  });

  it("lists conversations by latest message", async () => {
    const a = await client("Dana First");
    const b = await client("Eli Second");
    await send(a.api, "/api/messages", { text: "a" });
    await send(b.api, "/api/messages", { text: "b" });
    let ids = (await admin.get("/api/admin/messages")).body.map((c: { user_id: string }) => c.user_id);
    expect(ids.indexOf(b.user.id)).toBeLessThan(ids.indexOf(a.user.id));
    server.clock.advance(1000);
    await send(admin, `/api/admin/messages/${a.user.id}`, { text: "a again" });
    ids = (await admin.get("/api/admin/messages")).body.map((c: { user_id: string }) => c.user_id);
    expect(ids[0]).toBe(a.user.id);
  });
});

describe("the trail and the account", () => {
  it("records every message, and deleting the client deletes the conversation", async () => {
    const { user, api } = await client("Frankie Gone");
    const doc = await upload(api);
    const mine = await send(api, "/api/messages", { text: SECRET, document_ids: [doc] });
    const firms = await send(admin, `/api/admin/messages/${user.id}`, { text: "ok" });
    const events = await server.db
      .selectFrom("activity_events")
      .select(["action", "actor_role", "target_id", "detail", "account_id as client_id"])
      .where("action", "=", "message.send")
      .where("account_id", "=", user.id)
      .orderBy("id")
      .execute();
    expect(events).toEqual([
      { action: "message.send", actor_role: "client", target_id: mine.id, detail: { attachments: 1 }, client_id: user.id },
      { action: "message.send", actor_role: "admin", target_id: firms.id, detail: { attachments: 0 }, client_id: user.id },
    ]);
    // The trail never holds the text.
    expect(JSON.stringify(events)).not.toContain("078-05");
    const trail = await api.get("/api/activity");
    expect(trail.status, trail.text).toBe(200);

    expect((await admin.request("DELETE", `/api/admin/users/${user.id}`)).status).toBe(200);
    const left = await sql<{ n: number }>`
      select (select count(*)::int from messages where account_id = ${user.id})
        + (select count(*)::int from message_threads where account_id = ${user.id})
        + (select count(*)::int from message_attachments where message_id in (${mine.id}, ${firms.id})) as n`.execute(server.db);
    expect(left.rows[0]!.n).toBe(0);
    expect((await admin.get("/api/admin/messages")).body.map((c: { user_id: string }) => c.user_id)).not.toContain(user.id);
  });
});

describe("the email after 5 minutes unread", () => {
  /** The message emails queued for one client, waiting or done. */
  async function queued(userId: string, side: "client" | "firm"): Promise<number> {
    const rows = await sql<{ n: number }>`select count(*)::int as n from pgboss.job
      where name = 'email' and data->>'kind' = 'message-waiting' and data->>'clientId' = ${userId} and data->>'side' = ${side}`.execute(server.db);
    return rows.rows[0]!.n;
  }

  /** Makes the client's waiting message emails due now, as if 5 minutes had passed (pg-boss runs on the database's clock). */
  async function release(userId: string): Promise<void> {
    const due = await sql<{ start_after: Date }>`select start_after from pgboss.job
      where name = 'email' and state = 'created' and data->>'kind' = 'message-waiting' and data->>'clientId' = ${userId}`.execute(server.db);
    for (const row of due.rows) expect(row.start_after.getTime() - Date.now()).toBeGreaterThan(4 * MINUTE);
    await sql`update pgboss.job set start_after = now()
      where name = 'email' and state = 'created' and data->>'kind' = 'message-waiting' and data->>'clientId' = ${userId}`.execute(server.db);
  }

  async function done(userId: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows = await sql<{ n: number }>`select count(*)::int as n from pgboss.job
        where name = 'email' and data->>'kind' = 'message-waiting' and data->>'clientId' = ${userId} and state <> 'completed'`.execute(server.db);
      if (rows.rows[0]!.n === 0) return;
      if (Date.now() > deadline) throw new Error("message emails still waiting");
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  function mailsTo(to: string, about: string): ReceivedMail[] {
    return smtp.messages.filter((m) => m.to.includes(to) && m.text.includes(about));
  }

  it("mails the firm once for a burst of a client's messages, without their text", async () => {
    const { user, api } = await client("Gale Burst");
    await send(api, "/api/messages", { text: SECRET });
    await send(api, "/api/messages", { text: "and another thing" });
    await send(api, "/api/messages", { text: "last one" });
    expect(await queued(user.id, "firm")).toBe(1);
    expect(await queued(user.id, "client")).toBe(0);
    await release(user.id);
    const mail = await smtp.waitForMail(FIRM_EMAIL, /New message from Gale Burst/);
    await done(user.id);
    expect(mail.text).toContain("sent 3 messages that no one at the firm has read yet");
    expect(mail.text).toContain(`/admin/dashboard?tab=messages&client=${user.id}`);
    for (const secret of ["078-05", "another thing", "last one"]) expect(mail.raw).not.toContain(secret);
    await new Promise((r) => setTimeout(r, 1500));
    expect(mailsTo(FIRM_EMAIL, "Gale Burst")).toHaveLength(1);

    // The burst is closed: the next message opens another.
    await send(api, "/api/messages", { text: "later" });
    expect(await queued(user.id, "firm")).toBe(2);
  });

  it("mails the client when the firm's message waits unread, and nothing when it was read meanwhile", async () => {
    const { user, api } = await client("Harper Reads");
    await send(admin, `/api/admin/messages/${user.id}`, { text: SECRET });
    expect(await queued(user.id, "client")).toBe(1);
    await release(user.id);
    const mail = await smtp.waitForMail(user.email, /New message from/);
    await done(user.id);
    expect(mail.text).toContain("You have a new message from");
    expect(mail.text).toContain("/dashboard?tab=messages");
    expect(mail.raw).not.toContain("078-05");

    await send(admin, `/api/admin/messages/${user.id}`, { text: "second burst" });
    expect(await queued(user.id, "client")).toBe(2);
    expect((await api.post("/api/messages/read", {})).status).toBe(200);
    await release(user.id);
    await done(user.id);
    await new Promise((r) => setTimeout(r, 1000));
    expect(smtp.messages.filter((m) => m.to.includes(user.email))).toHaveLength(1);
  });

  it("a burst read and then written to again mails only when the new message has waited its own 5 minutes", async () => {
    const { user, api } = await client("Finch Early");
    await send(admin, `/api/admin/messages/${user.id}`, { text: "first" });
    expect((await api.post("/api/messages/read", {})).status).toBe(200);
    // Read, so the burst closed: the next message opens a burst (and a job) of its own.
    await send(admin, `/api/admin/messages/${user.id}`, { text: "second" });
    expect(await queued(user.id, "client")).toBe(2);
    // The first job, run now, is not the open burst's: it sends nothing for a message seconds old.
    const first = await sql<{ id: string }>`select id from pgboss.job where name = 'email' and state = 'created'
      and data->>'kind' = 'message-waiting' and data->>'clientId' = ${user.id} order by created_on limit 1`.execute(server.db);
    await sql`update pgboss.job set start_after = now() where name = 'email' and id = ${first.rows[0]!.id}`.execute(server.db);
    await new Promise((r) => setTimeout(r, 2000));
    expect(smtp.messages.filter((m) => m.to.includes(user.email))).toHaveLength(0);
    await release(user.id);
    await smtp.waitForMail(user.email, /New message from/);
    await done(user.id);
    expect(smtp.messages.filter((m) => m.to.includes(user.email))).toHaveLength(1);
  });
});

/** An open event stream as EventSource reads it: the data of each unnamed event, once the server said it listens. */
async function openStream(api: ApiClient, path: string, baseUrl = api.baseUrl) {
  const abort = new AbortController();
  const res = await fetch(new URL(path, baseUrl), {
    headers: { Accept: "text/event-stream", Cookie: [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/event-stream");
  const events: Array<{ client_id: string }> = [];
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of res.body!) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (/^event: ready$/m.test(block)) ready();
          else if (block.startsWith("data: ")) events.push(JSON.parse(block.slice(6)));
        }
      }
    } catch {
      // Closed by the test.
    }
  })();
  await isReady;
  return {
    events,
    async waitFor(predicate: (e: { client_id: string }) => boolean, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!events.some(predicate)) {
        if (Date.now() > deadline) throw new Error(`no such event in ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => abort.abort(),
  };
}

describe("live updates", () => {
  it("streams only to signed-in callers who ask for a stream", async () => {
    const { api } = await client();
    expect((await new ApiClient(server.url).get("/api/messages/events")).status).toBe(401);
    expect((await api.get("/api/admin/messages/events")).status).toBe(403);
    const plain = await api.get("/api/messages/events");
    expect(plain.status).toBe(406);
  });

  it("tells a client about their own conversation only, and the firm about every one", async () => {
    const a = await client("Ira Live");
    const b = await client("Jo Elsewhere");
    const streamA = await openStream(a.api, "/api/messages/events");
    const firm = await openStream(admin, "/api/admin/messages/events");
    try {
      await send(admin, `/api/admin/messages/${b.user.id}`, { text: "for Jo" });
      await send(admin, `/api/admin/messages/${a.user.id}`, { text: "for Ira" });
      await streamA.waitFor((e) => e.client_id === a.user.id);
      await firm.waitFor((e) => e.client_id === b.user.id);
      expect(streamA.events.every((e) => e.client_id === a.user.id)).toBe(true);
      await send(b.api, "/api/messages", { text: "from Jo" });
      await firm.waitFor((e) => e.client_id === b.user.id && firm.events.filter((x) => x.client_id === b.user.id).length >= 2);
      // A refused message changes nothing and tells no one.
      const before = streamA.events.length;
      expect((await a.api.post("/api/messages", { text: "x".repeat(10_001) })).status).toBe(422);
      await new Promise((r) => setTimeout(r, 300));
      expect(streamA.events).toHaveLength(before);
    } finally {
      streamA.close();
      firm.close();
    }
  });

  it.skipIf(!process.env.DATABASE_URL)("an event published on one instance reaches a subscriber on the other", async () => {
    const handle = await openDatabase({ databaseUrl: server.database.url, dataDir: "memory://", logger: createLogger("silent") });
    const other = await startTestServer({ database: { ...handle, url: server.database.url, name: server.database.name } });
    try {
      const { user, api } = await client("Kai Two Instances");
      // The client's session works on either instance; the stream is open on the other one.
      const stream = await openStream(api, "/api/messages/events", other.url);
      const firmStream = await openStream(admin, "/api/admin/messages/events", other.url);
      await send(admin, `/api/admin/messages/${user.id}`, { text: "sent through the first instance" });
      await stream.waitFor((e) => e.client_id === user.id);
      await send(api, "/api/messages", { text: "answered through the first instance" });
      await firmStream.waitFor((e) => e.client_id === user.id);
      stream.close();
      firmStream.close();
    } finally {
      await other.close();
    }
  });
});
