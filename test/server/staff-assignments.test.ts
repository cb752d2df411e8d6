// Issue 33, part 2: assigned accounts. PUT /api/admin/accounts/:id/assignees names the firm's people
// an account is assigned to (active staff only, 422 otherwise, a trail entry); a staff member
// without all_clients then reaches exactly those accounts on every firm path (lists, counts, by id,
// by person), and anything else answers 404 as if it did not exist; all_clients, admins and the
// owner reach every account.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addToInbox } from "../../server/domains/inbox/queries.ts";
import { createStaffMember, createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient, ApiResponse } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { seedObjects } from "../security/helpers.ts";

type Objects = Awaited<ReturnType<typeof seedObjects>>;

let server: TestServer;
let ownerApi: ApiClient;
let preparerApi: ApiClient;
let allClientsApi: ApiClient;
let preparer: UserFixture;
let clientA: UserFixture;
let clientB: UserFixture;
let objectsA: Objects;
let objectsB: Objects;

const WORK_RIGHTS = ["manage_clients", "documents", "requests", "messages", "appointments", "activity"];

beforeAll(async () => {
  server = await startTestServer();
  const owner = await createStaffMember(server.db, "owner", [], { name: "Olivia Owner" });
  preparer = await createStaffMember(server.db, "staff", WORK_RIGHTS, { name: "Pat Preparer" });
  const allClients = await createStaffMember(server.db, "staff", [...WORK_RIGHTS, "all_clients"], { name: "Alex All" });
  clientA = await createUser(server.db, { name: "Ada Assigned" });
  clientB = await createUser(server.db, { name: "Bo Unassigned" });
  objectsA = await seedObjects(server.db, server.deps.storage, clientA.id);
  objectsB = await seedObjects(server.db, server.deps.storage, clientB.id);
  ownerApi = await loginClient(server.url, owner, "admin");
  preparerApi = await loginClient(server.url, preparer, "admin");
  allClientsApi = await loginClient(server.url, allClients, "admin");
  // Something of each account in every firm list: a conversation, an Inbox item and trail events.
  for (const client of [clientA, clientB]) {
    expect((await ownerApi.post(`/api/admin/messages/${client.id}`, { text: `Hello ${client.name}` })).status).toBe(201);
    await addToInbox(server.db, {
      kind: "request_submitted",
      account_id: client.id,
      actor_id: null,
      subject_id: client.id,
      summary: { title: `Forms of ${client.name}` },
      at: new Date(),
    });
  }
  for (const objects of [objectsA, objectsB]) {
    expect((await ownerApi.get(`/api/admin/documents/${objects.documentId}/download`)).status).toBe(200);
  }
});
afterAll(async () => {
  await server?.close();
});

const listOf = (res: ApiResponse): Record<string, unknown>[] => {
  const body = res.body as unknown;
  return (Array.isArray(body) ? body : (body as { items: Record<string, unknown>[] }).items) ?? [];
};

async function assign(api: ApiClient, accountId: string, userIds: string[]): Promise<ApiResponse> {
  return api.request("PUT", `/api/admin/accounts/${accountId}/assignees`, { json: { user_ids: userIds } });
}

describe("PUT /api/admin/accounts/:id/assignees", () => {
  it("assigns active staff, answers the account's assignees and records who changed them", async () => {
    const res = await assign(ownerApi, clientA.id, [preparer.id]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      account_id: clientA.id,
      assignees: [{ id: preparer.id, name: "Pat Preparer", role: "staff", active: true }],
    });
    expect((await ownerApi.get(`/api/admin/accounts/${clientA.id}/assignees`)).body).toMatchObject({
      assignees: [{ id: preparer.id }],
    });
    const events = await server.db
      .selectFrom("activity_events")
      .select(["actor_role", "account_id", "detail"])
      .where("action", "=", "account.assign")
      .where("target_id", "=", clientA.id)
      .execute();
    // The firm's own entry: the client's trail does not name the firm's people.
    expect(events).toEqual([{ actor_role: "admin", account_id: null, detail: { account: expect.any(String), added: [preparer.id], removed: [] } }]);
  });

  it("answers 422 naming a client or an unknown id, and changes nothing", async () => {
    for (const stranger of [clientB.id, "00000000-0000-4000-8000-000000000000"]) {
      const res = await assign(ownerApi, clientA.id, [preparer.id, stranger]);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ detail: `Only active members of the firm's team can be assigned: ${stranger} is not one` });
    }
    expect((await assign(ownerApi, clientA.id, ["not-an-id"])).status).toBe(422);
    expect((await assign(ownerApi, clientA.id, "x" as unknown as string[])).status).toBe(422);
    expect(((await ownerApi.get(`/api/admin/accounts/${clientA.id}/assignees`)).body as { assignees: unknown[] }).assignees).toHaveLength(1);
  });

  it("answers 404 for an account that does not exist, and for one outside a staff member's reach", async () => {
    expect((await assign(ownerApi, "00000000-0000-4000-8000-000000000000", [])).status).toBe(404);
    expect(await assign(preparerApi, clientB.id, [preparer.id])).toMatchObject({ status: 404, body: { detail: "Account not found" } });
    expect((await preparerApi.get(`/api/admin/accounts/${clientB.id}/assignees`)).status).toBe(404);
    expect((await preparerApi.get(`/api/admin/accounts/${clientA.id}/assignees`)).status).toBe(200);
  });
});

describe("a staff member without all_clients reaches only their assigned accounts", () => {
  it("lists and counts: clients, search, documents, trash, conversations, Inbox, requests, appointments, activity and its CSV", async () => {
    const users = listOf(await preparerApi.get("/api/admin/users"));
    expect(users.map((u) => u.id)).toEqual([clientA.id]);
    expect(listOf(await preparerApi.get(`/api/admin/users?q=${encodeURIComponent("Bo Unassigned")}`))).toEqual([]);
    const stats = (await preparerApi.get("/api/admin/stats")).body as { stats: Record<string, number>; recent_users: { id: string }[] };
    expect(stats.stats).toEqual({ total_users: 1, total_documents: 1, total_appointments: 1, total_folders: 1 });
    expect(stats.recent_users.map((u) => u.id)).toEqual([clientA.id]);

    expect(listOf(await preparerApi.get("/api/admin/documents")).map((d) => d.id)).toEqual([objectsA.documentId]);
    expect(listOf(await preparerApi.get("/api/admin/documents?q=w2")).map((d) => d.id)).toEqual([objectsA.documentId]);
    expect(listOf(await preparerApi.get("/api/admin/trash")).map((d) => d.id)).toEqual([objectsA.trashedDocumentId]);
    expect(listOf(await preparerApi.get("/api/admin/messages")).map((c) => c.user_id)).toEqual([clientA.id]);
    const inbox = (await preparerApi.get("/api/admin/inbox")).body as { items: { client_id: string }[]; unread: number };
    expect({ clients: inbox.items.map((i) => i.client_id), unread: inbox.unread }).toEqual({ clients: [clientA.id], unread: 1 });
    expect(listOf(await preparerApi.get("/api/admin/requests")).map((r) => r.id)).toEqual([objectsA.requestId]);
    expect(listOf(await preparerApi.get("/api/admin/appointments")).map((a) => a.id)).toEqual([objectsA.appointmentId]);
    const from = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 7 * 86_400_000).toISOString();
    expect(listOf(await preparerApi.get(`/api/admin/calendar?from=${from}&to=${to}`)).map((a) => a.id)).toEqual([objectsA.appointmentId]);

    const activity = listOf(await preparerApi.get("/api/admin/activity"));
    expect(activity.length).toBeGreaterThan(0);
    // The assigned account's events, and the firm's own (of no account) but never another account's.
    expect(activity.some((e) => e.client_id === clientA.id)).toBe(true);
    expect(activity.filter((e) => e.client_id !== null && e.client_id !== clientA.id)).toEqual([]);
    expect(activity.filter((e) => e.action === "account.assign")).toEqual([]);
    const csv = (await preparerApi.get("/api/admin/activity.csv")).text;
    expect(csv).toContain(clientA.id);
    expect(csv).not.toContain(clientB.id);
  });

  it("by id and by person: the assigned account's answer, and 404 for the other's, which stays as it was", async () => {
    const cases: [string, string, unknown?][] = [
      ["GET", `/api/admin/documents/%DOC%/download`],
      ["GET", `/api/admin/documents/%DOC%/preview`],
      ["GET", `/api/admin/users/%USER%`],
      ["GET", `/api/admin/users/%USER%/folders`],
      ["GET", `/api/admin/users/%USER%/documents`],
      ["GET", `/api/admin/messages/%USER%`],
      ["POST", `/api/admin/messages/%USER%/read`, {}],
      ["GET", `/api/admin/requests?user_id=%USER%`],
      ["GET", `/api/admin/appointments?user_id=%USER%`],
    ];
    for (const [method, template, json] of cases) {
      const path = (user: UserFixture, objects: Objects) => template.replace("%DOC%", objects.documentId).replace("%USER%", user.id);
      const mine = await preparerApi.request(method, path(clientA, objectsA), { json });
      expect({ template, status: mine.status < 300 }).toEqual({ template, status: true });
      const other = await preparerApi.request(method, path(clientB, objectsB), { json });
      expect({ template, status: other.status }).toEqual({ template, status: 404 });
    }
    const writes: [string, string, unknown][] = [
      ["POST", `/api/admin/messages/${clientB.id}`, { text: "Not yours" }],
      ["PATCH", `/api/admin/requests/${objectsB.requestId}`, { status: "done" }],
      ["PATCH", `/api/admin/appointments/${objectsB.appointmentId}`, { status: "cancelled" }],
      ["PATCH", `/api/admin/users/${clientB.id}/quota`, { quota_mb: 5 }],
      ["POST", `/api/admin/requests`, { user_id: clientB.id, title: "1099s" }],
      ["POST", `/api/admin/appointments`, { user_id: clientB.id, title: "Call", appointment_date: new Date(Date.now() + 86_400_000).toISOString() }],
      ["POST", `/api/admin/trash/${objectsB.trashedDocumentId}/restore`, {}],
      ["DELETE", `/api/admin/documents/${objectsB.documentId}`, {}],
      ["DELETE", `/api/admin/users/${clientB.id}`, {}],
    ];
    for (const [method, path, json] of writes) {
      expect({ path, status: (await preparerApi.request(method, path, { json })).status }).toEqual({ path, status: 404 });
    }
    const b = await server.db
      .selectFrom("documents")
      .select(["id", "deleted_at"])
      .where("account_id", "=", clientB.id)
      .orderBy("deleted_at", "desc")
      .execute();
    expect(b.map((d) => [d.id, d.deleted_at === null])).toEqual(
      expect.arrayContaining([
        [objectsB.documentId, true],
        [objectsB.trashedDocumentId, false],
      ]),
    );
    const request = await server.db.selectFrom("document_requests").select("status").where("id", "=", objectsB.requestId).executeTakeFirstOrThrow();
    expect(request.status).toBe("open");
    const messages = await server.db.selectFrom("messages").select("id").where("account_id", "=", clientB.id).execute();
    expect(messages).toHaveLength(1);
    expect(await server.db.selectFrom("users").select("id").where("id", "=", clientB.id).executeTakeFirst()).toBeDefined();
  });

  it("all_clients, like the owner, reaches every account", async () => {
    for (const api of [allClientsApi, ownerApi]) {
      const ids = listOf(await api.get("/api/admin/users")).map((u) => u.id);
      expect(ids).toEqual(expect.arrayContaining([clientA.id, clientB.id]));
      expect((await api.get(`/api/admin/documents/${objectsB.documentId}/download`)).status).toBe(200);
      expect(listOf(await api.get("/api/admin/messages")).map((c) => c.user_id)).toEqual(expect.arrayContaining([clientA.id, clientB.id]));
    }
  });

  it("unassigned, the account is gone at the next request; assigned again, it is back", async () => {
    expect((await assign(ownerApi, clientA.id, [])).body).toEqual({ account_id: clientA.id, assignees: [], invited: [] });
    expect(listOf(await preparerApi.get("/api/admin/users"))).toEqual([]);
    expect((await preparerApi.get(`/api/admin/documents/${objectsA.documentId}/download`)).status).toBe(404);
    expect((await preparerApi.get(`/api/admin/messages/${clientA.id}`)).status).toBe(404);
    expect((await assign(ownerApi, clientA.id, [preparer.id])).status).toBe(200);
    expect((await preparerApi.get(`/api/admin/documents/${objectsA.documentId}/download`)).status).toBe(200);
  });
});

describe("GET /api/admin/accounts/:id/access-report", () => {
  it("answers who at the firm opened the account's documents, and when, newest first; never another account's", async () => {
    expect((await preparerApi.get(`/api/admin/documents/${objectsA.documentId}/preview`)).status).toBe(200);
    const res = await preparerApi.get(`/api/admin/accounts/${clientA.id}/access-report`);
    expect(res.status).toBe(200);
    const items = (res.body as { items: { actor_id: string; action: string; document_id: string; filename: string }[] }).items;
    expect(items.map((i) => [i.actor_id, i.action, i.document_id, i.filename])).toEqual(
      expect.arrayContaining([
        [preparer.id, "document.preview", objectsA.documentId, "w2.pdf"],
        [expect.any(String), "document.download", objectsA.documentId, "w2.pdf"],
      ]),
    );
    const times = items.map((i) => new Date((i as unknown as { occurred_at: string }).occurred_at).getTime());
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(items.every((i) => i.document_id === objectsA.documentId)).toBe(true);
    expect((await preparerApi.get(`/api/admin/accounts/${clientB.id}/access-report`)).status).toBe(404);
    expect((await ownerApi.get(`/api/admin/accounts/${clientB.id}/access-report`)).status).toBe(200);
  });

  it("answers who at the firm can see the account now, and why: owner, admin, all_clients or assigned; never the deactivated", async () => {
    await createStaffMember(server.db, "admin", [], { name: "Ann Admin" });
    const gone = await createStaffMember(server.db, "staff", ["all_clients"], { name: "Gil Gone" });
    expect((await ownerApi.patch(`/api/admin/staff/${gone.id}`, { active: false })).status).toBe(200);
    const report = async (accountId: string) =>
      ((await ownerApi.get(`/api/admin/accounts/${accountId}/access-report`)).body as { people: Record<string, unknown>[] }).people;
    const people = await report(clientA.id);
    const byName = new Map(people.map((p) => [p.name, p]));
    expect(byName.get("Olivia Owner")).toMatchObject({ role: "owner", reason: "owner", assigned: false });
    expect(byName.get("Ann Admin")).toMatchObject({ role: "admin", reason: "admin", rights: expect.arrayContaining(["all_clients", "staff"]) });
    expect(byName.get("Alex All")).toMatchObject({ role: "staff", reason: "all_clients", assigned: false });
    expect(byName.get("Pat Preparer")).toMatchObject({ role: "staff", reason: "assigned", assigned: true, rights: WORK_RIGHTS });
    expect(byName.has("Gil Gone")).toBe(false);
    expect(people[0]).toMatchObject({ role: "owner" });
    // The unassigned account: the preparer is not among those who see it.
    expect((await report(clientB.id)).map((p) => p.name)).not.toContain("Pat Preparer");
  });
});

describe("the Team's assigned accounts", () => {
  it("lists each person's assigned accounts, only those the asker reaches", async () => {
    expect((await assign(ownerApi, clientA.id, [preparer.id])).status).toBe(200);
    expect((await assign(ownerApi, clientB.id, [preparer.id])).status).toBe(200);
    try {
      const team = (await ownerApi.get("/api/admin/staff")).body as { id: string; name: string; assigned_accounts: { id: string; name: string }[] }[];
      expect(
        team
          .find((m) => m.id === preparer.id)!
          .assigned_accounts.map((a) => a.id)
          .sort(),
      ).toEqual([clientA.id, clientB.id].sort());
      expect(team.find((m) => m.name === "Olivia Owner")!.assigned_accounts).toEqual([]);
      // A team manager on assigned accounts (only A) does not learn the name of B from the Team tab.
      const manager = await createStaffMember(server.db, "staff", ["staff"], { name: "Meg Manager" });
      expect((await assign(ownerApi, clientA.id, [preparer.id, manager.id])).status).toBe(200);
      const managerApi = await loginClient(server.url, manager, "admin");
      const seen = (await managerApi.get("/api/admin/staff")).body as { id: string; assigned_accounts: { id: string }[] }[];
      expect(seen.find((m) => m.id === preparer.id)!.assigned_accounts.map((a) => a.id)).toEqual([clientA.id]);
      expect(JSON.stringify(seen)).not.toContain(clientB.id);
    } finally {
      expect((await assign(ownerApi, clientA.id, [preparer.id])).status).toBe(200);
      expect((await assign(ownerApi, clientB.id, [])).status).toBe(200);
    }
  });
});

describe("who on the firm's side read and answered", () => {
  it("a conversation and an Inbox item name the person who read them; a message names its author", async () => {
    expect((await preparerApi.post(`/api/admin/messages/${clientA.id}/read`, {})).status).toBe(200);
    const conversations = listOf(await ownerApi.get("/api/admin/messages"));
    expect(conversations.find((c) => c.user_id === clientA.id)).toMatchObject({ read_by_name: "Pat Preparer" });
    expect(conversations.find((c) => c.user_id === clientB.id)).toMatchObject({ read_by_name: null });

    expect((await preparerApi.post("/api/admin/inbox/read", { all: true })).status).toBe(200);
    const inbox = (await ownerApi.get("/api/admin/inbox")).body as { items: { client_id: string; read_by_name: string | null }[] };
    expect(inbox.items.find((i) => i.client_id === clientA.id)).toMatchObject({ read_by_name: "Pat Preparer" });
    // The other account's item was outside the preparer's reach: still unread.
    expect(inbox.items.find((i) => i.client_id === clientB.id)).toMatchObject({ read_by_name: null });

    expect((await preparerApi.post(`/api/admin/messages/${clientA.id}`, { text: "Your W-2 is in." })).status).toBe(201);
    const author = await server.db
      .selectFrom("messages")
      .select("sender_id")
      .where("account_id", "=", clientA.id)
      .orderBy("seq", "desc")
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(author.sender_id).toBe(preparer.id);
  });
});

/** An open event stream, as EventSource reads it: the data of each unnamed event, once the server said it listens. */
async function openStream(api: ApiClient, path: string) {
  const abort = new AbortController();
  const res = await fetch(new URL(path, server.url), {
    headers: { Accept: "text/event-stream", Cookie: [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  const events: Array<{ client_id: string }> = [];
  let readies = 0;
  let ended = false;
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
          if (/^event: ready$/m.test(block)) {
            readies++;
            ready();
          } else if (block.startsWith("data: ")) events.push(JSON.parse(block.slice(6)));
        }
      }
    } catch {
      // Closed by the test.
    }
    ended = true;
  })();
  await isReady;
  const until = async (what: string, done: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`${what}: not yet in ${JSON.stringify(events)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return {
    events,
    readies: () => readies,
    /** Waits for the server to say the page should ask again (a "ready" event past the first `count`). */
    waitForReady: (count: number) => until(`ready ${count + 1}`, () => readies > count),
    waitForEnd: () => until("the end of the stream", () => ended),
    async waitFor(clientId: string) {
      const deadline = Date.now() + 10_000;
      while (!events.some((e) => e.client_id === clientId)) {
        if (Date.now() > deadline) throw new Error(`no event for ${clientId} in ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => abort.abort(),
  };
}

describe("the firm's live message stream", () => {
  it("tells a staff member on assigned accounts of those conversations only", async () => {
    const preparerStream = await openStream(preparerApi, "/api/admin/messages/events");
    const ownerStream = await openStream(ownerApi, "/api/admin/messages/events");
    try {
      const clientBApi = await loginClient(server.url, clientB);
      const clientAApi = await loginClient(server.url, clientA);
      expect((await clientBApi.post("/api/messages", { text: "From B" })).status).toBe(201);
      await ownerStream.waitFor(clientB.id);
      expect((await clientAApi.post("/api/messages", { text: "From A" })).status).toBe(201);
      await ownerStream.waitFor(clientA.id);
      await preparerStream.waitFor(clientA.id);
      expect(preparerStream.events.filter((e) => e.client_id === clientB.id)).toEqual([]);
    } finally {
      preparerStream.close();
      ownerStream.close();
    }
  });
});

describe("a change of a staff member's reach holds on their open message stream at once", () => {
  it("all_clients taken away, an account assigned or unassigned, the messages right taken away: the stream follows without a reconnect", async () => {
    const member = await createStaffMember(server.db, "staff", ["messages", "all_clients"], { name: "Sam Stream" });
    const memberApi = await loginClient(server.url, member, "admin");
    const clientAApi = await loginClient(server.url, clientA);
    const clientBApi = await loginClient(server.url, clientB);
    const stream = await openStream(memberApi, "/api/admin/messages/events");
    try {
      expect((await clientBApi.post("/api/messages", { text: "B while all" })).status).toBe(201);
      await stream.waitFor(clientB.id);

      // all_clients off: on assigned accounts (none yet) from the notice on; the page is told to ask again.
      let readies = stream.readies();
      expect((await ownerApi.patch(`/api/admin/staff/${member.id}`, { rights: ["messages"] })).status).toBe(200);
      await stream.waitForReady(readies);
      const seenB = stream.events.length;
      expect((await clientBApi.post("/api/messages", { text: "B after all_clients" })).status).toBe(201);
      // Assigned to A: A's conversation reaches the same stream; B's messages still never do.
      readies = stream.readies();
      expect((await assign(ownerApi, clientA.id, [preparer.id, member.id])).status).toBe(200);
      await stream.waitForReady(readies);
      expect((await clientAApi.post("/api/messages", { text: "A once assigned" })).status).toBe(201);
      await stream.waitFor(clientA.id);
      expect(stream.events.slice(seenB).filter((e) => e.client_id === clientB.id)).toEqual([]);

      // Unassigned from A: A's next message is not announced; B's, assigned now, is.
      readies = stream.readies();
      expect((await assign(ownerApi, clientA.id, [preparer.id])).status).toBe(200);
      await stream.waitForReady(readies);
      expect((await assign(ownerApi, clientB.id, [member.id])).status).toBe(200);
      const seenA = stream.events.length;
      expect((await clientAApi.post("/api/messages", { text: "A after unassignment" })).status).toBe(201);
      expect((await clientBApi.post("/api/messages", { text: "B once assigned" })).status).toBe(201);
      await stream.waitFor(clientB.id);
      await until(() => stream.events.slice(seenA).some((e) => e.client_id === clientB.id));
      expect(stream.events.slice(seenA).filter((e) => e.client_id === clientA.id)).toEqual([]);

      // Without the messages right the stream ends, and opening another is refused naming the right.
      expect((await ownerApi.patch(`/api/admin/staff/${member.id}`, { rights: ["documents"] })).status).toBe(200);
      await stream.waitForEnd();
      const again = await memberApi.request("GET", "/api/admin/messages/events", { headers: { Accept: "text/event-stream" } });
      expect(again).toMatchObject({ status: 403, body: { detail: "You need the messages right for this" } });
    } finally {
      stream.close();
      await assign(ownerApi, clientB.id, []);
    }
  });
});

async function until(done: () => boolean) {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("condition not met in 10 s");
    await new Promise((r) => setTimeout(r, 25));
  }
}

// The firm's account paths (issue 32) follow the same rule: a preparer with manage_clients lists,
// opens and changes the accounts assigned to them only, and keeps an account they make.
describe("the firm's account paths for a staff member on assigned accounts", () => {
  it("lists and opens only assigned accounts, refuses others as missing, and keeps an account they make", async () => {
    expect((await assign(ownerApi, clientA.id, [preparer.id])).status).toBe(200);
    const ids = (res: ApiResponse) => listOf(res).map((a) => a.id);
    const listed = ids(await preparerApi.get("/api/admin/accounts?limit=100"));
    expect(listed).toContain(clientA.id);
    expect(listed).not.toContain(clientB.id);
    expect(ids(await allClientsApi.get("/api/admin/accounts?limit=100"))).toEqual(expect.arrayContaining([clientA.id, clientB.id]));
    expect((await preparerApi.get(`/api/admin/accounts/${clientA.id}`)).status).toBe(200);
    expect((await preparerApi.get(`/api/admin/accounts/${clientB.id}`)).status).toBe(404);
    expect((await preparerApi.request("PATCH", `/api/admin/accounts/${clientB.id}`, { json: { name: "Taken over" } })).status).toBe(404);
    const invite = await preparerApi.post(`/api/admin/accounts/${clientB.id}/contacts`, { name: "Mallory", email: "mallory@example.com" });
    expect(invite.status).toBe(404);
    expect((await preparerApi.request("DELETE", `/api/admin/accounts/${clientB.id}/contacts/${clientB.id}`)).status).toBe(404);
    const unchanged = await server.db.selectFrom("accounts").select("name").where("id", "=", clientB.id).executeTakeFirstOrThrow();
    expect(unchanged.name).not.toBe("Taken over");

    const made = await preparerApi.post("/api/admin/accounts", { name: "Rivera Household", kind: "household" });
    expect(made.status).toBe(201);
    const madeId = (made.body as { id: string }).id;
    expect(ids(await preparerApi.get("/api/admin/accounts?limit=100"))).toContain(madeId);
    expect((await preparerApi.get(`/api/admin/accounts/${madeId}`)).status).toBe(200);
  });
});
