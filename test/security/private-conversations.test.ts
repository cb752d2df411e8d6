/*
 * Private conversations (docs/decisions.md, "Private conversations"; issue 48, item 8): a person of
 * an account (a business owner) holds a conversation with the firm that the account's other people
 * (their bookkeeper) never reach. The bookkeeper is replayed against every path that reads messages:
 * the conversation's pages, the unread count, the list of conversations, the event stream, the mail
 * burst, the activity trail and the account export; and tries to name the owner's conversation. The
 * firm reads it within its reach; a staff member outside that reach gets the same 404 as for nothing.
 */
import { sql } from "kysely";
import yauzl from "yauzl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaffMember, createUser, loginClient, makeHousehold, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const FIRM_EMAIL = "office@harborline.test";
const SECRET = "payroll for the owner alone: 078-05-1120";
const FIRM_ANSWER = "understood, only between us";

let smtp: TestSmtpServer;
let server: TestServer;
let firm: ApiClient;
let owner: UserFixture;
let bookkeeper: UserFixture;
let ownerApi: ApiClient;
let bookkeeperApi: ApiClient;
let conversationId: string;

type Message = { id: string; text: string };

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, FIRM_EMAIL } });
  firm = await loginClient(server.url, await createUser(server.db, { is_admin: true, name: "Morgan Firm" }), "admin");
  owner = await createUser(server.db, { name: "Dana Owner" });
  bookkeeper = await createUser(server.db, { name: "Bo Keeper" });
  await makeHousehold(server.db, { owner, member: bookkeeper, name: "Owner Bakery LLC", verifiedAt: new Date() });
  ownerApi = await loginClient(server.url, owner);
  bookkeeperApi = await loginClient(server.url, bookkeeper);
  // The account's own conversation, which both read, and the owner's private one.
  expect((await firm.post(`/api/admin/messages/${owner.id}`, { text: "hello to the whole account" })).status).toBe(201);
  const sent = await ownerApi.post("/api/messages", { text: SECRET, conversation: "private" });
  expect(sent.status, sent.text).toBe(201);
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});

function texts(res: { status: number; text: string; body: unknown }): string[] {
  expect(res.status, res.text).toBe(200);
  return (res.body as Message[]).map((m) => m.text);
}

describe("the firm reads the private conversation and answers in it", () => {
  it("lists it apart from the account's, naming whose it is, and opens it by its id", async () => {
    const list = await firm.get("/api/admin/messages");
    expect(list.status).toBe(200);
    const ofAccount = (
      list.body as Array<{ account_id: string; conversation_id: string; is_private: boolean; private_to_name: string | null }>
    ).filter((c) => c.account_id === owner.id);
    expect(ofAccount.map((c) => [c.is_private, c.private_to_name]).sort()).toEqual([
      [false, null],
      [true, "Dana Owner"],
    ]);
    conversationId = ofAccount.find((c) => c.is_private)!.conversation_id;
    expect(texts(await firm.get(`/api/admin/messages/${owner.id}?conversation_id=${conversationId}`))).toEqual([SECRET]);
    expect(texts(await firm.get(`/api/admin/messages/${owner.id}`))).toEqual(["hello to the whole account"]);
    const answer = await firm.post(`/api/admin/messages/${owner.id}`, { text: FIRM_ANSWER, conversation_id: conversationId });
    expect(answer.status, answer.text).toBe(201);
    expect(texts(await ownerApi.get("/api/messages?conversation=private"))).toEqual([SECRET, FIRM_ANSWER]);
  });

  it("a staff member who does not reach the account gets the 404 of a conversation that does not exist", async () => {
    const staff = await createStaffMember(server.db, "staff", ["messages"]);
    const api = await loginClient(server.url, staff, "admin");
    const res = await api.get(`/api/admin/messages/${owner.id}?conversation_id=${conversationId}`);
    expect(res.status).toBe(404);
    const write = await api.post(`/api/admin/messages/${owner.id}`, { text: "x", conversation_id: conversationId });
    expect(write.status).toBe(404);
    expect((await api.get("/api/admin/messages")).body).toEqual([]);
  });

  it("carries no documents either way: they would be filed where the whole account opens them", async () => {
    const form = new FormData();
    form.append("file", new Blob(["ledger"], { type: "text/plain" }), "ledger.txt");
    const uploaded = await ownerApi.request("POST", "/api/documents/upload", { body: form });
    expect(uploaded.status, uploaded.text).toBe(201);
    const documentId = (uploaded.body as { id: string }).id;
    const fromOwner = await ownerApi.post("/api/messages", { text: "see this", document_ids: [documentId], conversation: "private" });
    expect(fromOwner.status).toBe(422);
    const fromFirm = await firm.post(`/api/admin/messages/${owner.id}`, {
      text: "see this",
      document_ids: [documentId],
      conversation_id: conversationId,
    });
    expect(fromFirm.status).toBe(422);
  });
});

describe("the account's other person reaches none of it", () => {
  it("pages: the account's conversation holds none of it, and their own private one is their own", async () => {
    expect(texts(await bookkeeperApi.get("/api/messages"))).toEqual(["hello to the whole account"]);
    expect(texts(await bookkeeperApi.get("/api/messages?conversation=private"))).toEqual([]);
    // Naming the owner's conversation by its id, or as the owner, is not a thing the client paths take.
    expect(texts(await bookkeeperApi.get(`/api/messages?conversation=private&conversation_id=${conversationId}&user_id=${owner.id}`))).toEqual([]);
    expect((await bookkeeperApi.get(`/api/admin/messages/${owner.id}?conversation_id=${conversationId}`)).status).toBe(403);
    // Writing in "private" starts the bookkeeper's own conversation, never a message in the owner's.
    expect((await bookkeeperApi.post("/api/messages", { text: "mine", conversation: "private", conversation_id: conversationId })).status).toBe(201);
    expect(texts(await ownerApi.get("/api/messages?conversation=private"))).toEqual([SECRET, FIRM_ANSWER]);
    expect(texts(await bookkeeperApi.get("/api/messages?conversation=private"))).toEqual(["mine"]);
  });

  it("unread counts and the list of conversations count only what they read", async () => {
    expect((await bookkeeperApi.post("/api/messages/read", {})).status).toBe(200);
    expect((await bookkeeperApi.get("/api/messages/unread")).body).toEqual({ unread: 0 });
    await firm.post(`/api/admin/messages/${owner.id}`, { text: "a second private answer", conversation_id: conversationId });
    expect((await bookkeeperApi.get("/api/messages/unread")).body).toEqual({ unread: 0 });
    expect(((await ownerApi.get("/api/messages/unread")).body as { unread: number }).unread).toBeGreaterThan(0);
    const theirs = await bookkeeperApi.get("/api/messages/conversations");
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ private: { started: true, unread: 0 }, account: { unread: 0 } });
    expect((theirs.body as { account: { readers: Array<{ name: string }> } }).account.readers.map((r) => r.name)).toEqual([
      "Dana Owner",
      "Bo Keeper",
    ]);
    // The owner reading their private conversation leaves the account's read mark alone, and the other way round.
    expect((await ownerApi.post("/api/messages/read", { conversation: "private" })).status).toBe(200);
    expect((await ownerApi.get("/api/messages/conversations")).body).toMatchObject({ private: { started: true, unread: 0 } });
  });

  it("the event stream announces the owner's private conversation to the owner only", async () => {
    const ownerStream = await openStream(ownerApi);
    const bookkeeperStream = await openStream(bookkeeperApi);
    try {
      await firm.post(`/api/admin/messages/${owner.id}`, { text: "private ping", conversation_id: conversationId });
      await ownerStream.waitFor(1);
      // The account's own conversation reaches both: the bookkeeper's stream works, and it said nothing before.
      expect(bookkeeperStream.events).toHaveLength(0);
      await firm.post(`/api/admin/messages/${owner.id}`, { text: "to everyone" });
      await bookkeeperStream.waitFor(1);
      await ownerStream.waitFor(2);
      expect(bookkeeperStream.events).toHaveLength(1);
    } finally {
      ownerStream.close();
      bookkeeperStream.close();
    }
  });

  it("the activity trail and the account export hold none of the owner's private messages", async () => {
    const privateIds = (
      await server.db
        .selectFrom("messages")
        .innerJoin("message_threads", "message_threads.id", "messages.thread_id")
        .select("messages.id")
        .where("message_threads.private_to", "=", owner.id)
        .execute()
    ).map((m) => m.id);
    expect(privateIds.length).toBeGreaterThan(0);
    const targets = async (api: ApiClient) => {
      const res = await api.get("/api/activity?limit=200");
      expect(res.status, res.text).toBe(200);
      return (res.body as { items: Array<{ target_id: string | null }> }).items.map((i) => i.target_id);
    };
    expect((await targets(bookkeeperApi)).filter((id) => privateIds.includes(id!))).toEqual([]);
    expect((await targets(ownerApi)).filter((id) => privateIds.includes(id!)).length).toBeGreaterThan(0);

    const exported = async (api: ApiClient) => {
      const entries = await readZip(await download(api, "/api/account/export"));
      return entries.get("messages.json")!.toString();
    };
    const bookkeepers = await exported(bookkeeperApi);
    expect(bookkeepers).toContain("hello to the whole account");
    expect(bookkeepers).not.toContain("078-05");
    expect(bookkeepers).not.toContain(FIRM_ANSWER);
    expect(await exported(ownerApi)).toContain(FIRM_ANSWER);
  });

  it("the email that a private message waits goes to its person alone", async () => {
    await sql`update pgboss.job set start_after = now()
      where name = 'email' and state = 'created' and data->>'kind' = 'message-waiting' and data->>'clientId' = ${owner.id}`.execute(server.db);
    // Two bursts were open for the client side: the account's conversation's and the owner's private one's.
    const deadline = Date.now() + 20_000;
    while (smtp.messages.filter((m) => m.to.includes(owner.email)).length < 2) {
      if (Date.now() > deadline) throw new Error("the two message emails did not come");
      await new Promise((r) => setTimeout(r, 50));
    }
    const toOwner = smtp.messages.filter((m) => m.to.includes(owner.email));
    expect(toOwner.filter((m) => !m.to.includes(bookkeeper.email))).toHaveLength(1);
    // The account's conversation's email went to both, in one: the bookkeeper had that one only.
    const toBookkeeper = smtp.messages.filter((m) => m.to.includes(bookkeeper.email));
    expect(toBookkeeper).toHaveLength(1);
    expect(toBookkeeper[0]!.to).toContain(owner.email);
  });

  it("the owner deleted, their conversation stays private: the account's other person still reads none of it", async () => {
    expect((await firm.request("DELETE", `/api/admin/users/${owner.id}`)).status).toBeLessThan(300);
    const list = (await firm.get("/api/admin/messages")).body as Array<{
      conversation_id: string;
      is_private: boolean;
      private_to_name: string | null;
    }>;
    expect(list.find((c) => c.conversation_id === conversationId)).toMatchObject({ is_private: true, private_to_name: null });
    const again = await loginClient(server.url, bookkeeper);
    expect(texts(await again.get("/api/messages")).join()).not.toContain("078-05");
    expect(texts(await again.get("/api/messages?conversation=private"))).toEqual(["mine"]);
  });
});

/** An open event stream: the data events it has said, once the server said it listens. */
async function openStream(api: ApiClient) {
  const abort = new AbortController();
  const res = await fetch(new URL("/api/messages/events", server.url), {
    headers: { Accept: "text/event-stream", Cookie: cookieOf(api) },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  const events: unknown[] = [];
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
    async waitFor(count: number) {
      const deadline = Date.now() + 10_000;
      while (events.length < count) {
        if (Date.now() > deadline) throw new Error(`only ${events.length} events`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => abort.abort(),
  };
}

function cookieOf(api: ApiClient): string {
  return [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

async function download(api: ApiClient, path: string): Promise<Buffer> {
  const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookieOf(api) } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** Every file of a ZIP by name. */
function readZip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error("no zip"));
      const entries = new Map<string, Buffer>();
      zip.on("error", reject);
      zip.on("end", () => resolve(entries));
      zip.on("entry", (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith("/")) return zip.readEntry();
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr || !stream) return reject(streamErr ?? new Error("no stream"));
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
