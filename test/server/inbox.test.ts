// The firm's Inbox: each kind of arrival lands there in its change's transaction (a client's
// uploads, grouped by person while they keep coming; a client's messages, one item a conversation;
// a submitted request; a consultation request; an appointment asked for, booked, moved or
// cancelled, one item an appointment), naming people by name, unread until opened; only the firm
// reads or marks it, each person within their reach.
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createStaffMember, createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

type InboxItem = {
  id: string;
  kind: string;
  client_id: string | null;
  client_label: string | null;
  subject_id: string;
  summary: Record<string, unknown>;
  read: boolean;
  actor_name: string | null;
};

let server: TestServer;
let nora: UserFixture;
let noraClient: ApiClient;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  nora = await createUser(server.db, { name: "Nora Inbox" });
  noraClient = await loginClient(server.url, nora);
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.db.deleteFrom("inbox_items").execute();
});

function upload(filename: string, opts: { requestId?: string } = {}) {
  const form = new FormData();
  form.append("file", new Blob([new TextEncoder().encode(`content of ${filename}`)], { type: "text/plain" }), filename);
  if (opts.requestId) form.append("request_id", opts.requestId);
  return noraClient.request("POST", "/api/documents/upload", { body: form });
}

/** Moves every item back in time (the sessions stay fresh, as a moved clock would not keep them). */
async function ageInbox(minutes: number) {
  await server.db
    .updateTable("inbox_items")
    .set({ first_at: sql`first_at - make_interval(mins => ${minutes})`, last_at: sql`last_at - make_interval(mins => ${minutes})` })
    .execute();
}

async function inbox(query = ""): Promise<{ items: InboxItem[]; unread: number; next_cursor: string | null }> {
  const res = await admin.get(`/api/admin/inbox${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("what lands in the Inbox", () => {
  it("groups a client's uploads within ten minutes of the last one, and starts a new item after", async () => {
    for (const name of ["w2.pdf", "1099-int.pdf", "1099-div.pdf", "k1.pdf", "receipts.txt", "mileage.txt", "notes.txt"]) {
      expect((await upload(name)).status).toBe(201);
    }
    let page = await inbox();
    expect(page.unread).toBe(1);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ kind: "upload", client_id: nora.id, client_label: nora.username, actor_name: "Nora Inbox", read: false });
    expect(page.items[0]!.summary).toEqual({ count: 7, names: ["w2.pdf", "1099-int.pdf", "1099-div.pdf", "k1.pdf", "receipts.txt"] });

    // Eleven minutes of quiet: the next upload is news of its own.
    await ageInbox(11);
    expect((await upload("late.pdf")).status).toBe(201);
    page = await inbox();
    expect(page.items.map((item) => item.summary)).toEqual([{ count: 1, names: ["late.pdf"] }, expect.objectContaining({ count: 7 })]);

    // Once opened, a group takes no more uploads: the next one starts a new unread item.
    await admin.post("/api/admin/inbox/read", { ids: [page.items[0]!.id] });
    expect((await upload("after-read.pdf")).status).toBe(201);
    page = await inbox("?show=unread");
    expect(page.items.map((item) => item.summary)).toEqual([{ count: 1, names: ["after-read.pdf"] }, expect.objectContaining({ count: 7 })]);
  });

  it("leaves out what the firm itself uploads for the client", async () => {
    const form = new FormData();
    form.append("file", new Blob([new TextEncoder().encode("return")], { type: "text/plain" }), "return-2025.txt");
    const res = await admin.request("POST", `/api/admin/users/${nora.id}/documents`, { body: form });
    expect(res.status, res.text).toBe(201);
    expect((await inbox()).items).toEqual([]);

    // Nor what an admin files among their own documents.
    const own = new FormData();
    own.append("file", new Blob([new TextEncoder().encode("memo")], { type: "text/plain" }), "office-memo.txt");
    expect((await admin.request("POST", "/api/documents/upload", { body: own })).status).toBe(201);
    expect((await inbox()).items).toEqual([]);
  });

  it("takes a submitted document request, a consultation request and an appointment request", async () => {
    const created = await admin.post("/api/admin/requests", { user_id: nora.id, title: "2025 W-2 forms" });
    expect(created.status, created.text).toBe(201);
    expect((await upload("w2-employer.pdf", { requestId: created.body.id })).status).toBe(201);
    await server.db.deleteFrom("inbox_items").execute();
    expect((await noraClient.post(`/api/requests/${created.body.id}/submit`)).status).toBe(200);

    const consultation = await new ApiClient(server.url).post("/api/consultation/request", {
      name: "Fox Mulder",
      email: "fox.mulder@example.com",
      phone: "(202) 555-0143",
      service: "tax-prep",
      message: "Quarterly estimates, please.",
    });
    expect(consultation.status, consultation.text).toBe(200);
    const appointment = await noraClient.post("/api/appointments", { title: "Planning", preferredDate: "2030-03-12", preferredTime: "afternoon" });
    expect(appointment.status, appointment.text).toBe(201);

    const page = await inbox();
    expect(page.unread).toBe(3);
    expect(page.items.map(({ kind, client_id, subject_id, summary }) => ({ kind, client_id, subject_id, summary }))).toEqual([
      { kind: "appointment_request", client_id: nora.id, subject_id: appointment.body.id, summary: { title: "Planning", start: expect.any(String) } },
      {
        kind: "consultation",
        client_id: null,
        subject_id: expect.any(String),
        summary: { name: "Fox Mulder", service: "tax-prep", service_label: "Tax Preparation & Planning" },
      },
      { kind: "request_submitted", client_id: nora.id, subject_id: created.body.id, summary: { title: "2025 W-2 forms" } },
    ]);
  });
});

describe("where work arrives (issue 34)", () => {
  it("groups uploads by person: ten by one person to one account are one item; another person's are their own", async () => {
    for (let i = 1; i <= 10; i++) expect((await upload(`scan-${i}.pdf`)).status).toBe(201);
    // Nora's husband joins her account and uploads too.
    const husband = await createUser(server.db, { name: "Omar Inbox" });
    await server.db.insertInto("account_contacts").values({ account_id: nora.id, user_id: husband.id, role: "member" }).execute();
    const husbandApi = await loginClient(server.url, husband);
    expect((await husbandApi.post("/api/accounts/switch", { account_id: nora.id })).status).toBe(200);
    const form = new FormData();
    form.append("file", new Blob([new TextEncoder().encode("k-1")], { type: "text/plain" }), "k1-partnership.txt");
    expect((await husbandApi.request("POST", "/api/documents/upload", { body: form })).status).toBe(201);

    const page = await inbox();
    expect(page.items.map(({ kind, client_id, actor_name, summary }) => ({ kind, client_id, actor_name, count: summary.count }))).toEqual([
      { kind: "upload", client_id: nora.id, actor_name: "Omar Inbox", count: 1 },
      { kind: "upload", client_id: nora.id, actor_name: "Nora Inbox", count: 10 },
    ]);
    expect(page.unread).toBe(2);
  });

  it("makes a conversation's unread messages one item, which the firm's reply (by account) marks read", async () => {
    expect((await noraClient.post("/api/messages", { text: "Did you get my W-2?" })).status).toBe(201);
    expect((await noraClient.post("/api/messages", { text: "Also: the 1099 from the bank is late." })).status).toBe(201);
    let page = await inbox();
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      kind: "message",
      client_id: nora.id,
      actor_name: "Nora Inbox",
      read: false,
      summary: { count: 2, text: "Also: the 1099 from the bank is late.", attachments: 0 },
    });

    // The reply in place names the account, as the Inbox knows it.
    const reply = await trpcMutation(admin, "admin.messages.send", { account_id: nora.id, text: "Got it, thanks." });
    expect(reply.status, reply.text).toBe(200);
    page = await inbox();
    expect(page.items[0]).toMatchObject({ kind: "message", read: true });
    expect(page.unread).toBe(0);
    // The firm's own message never lands in the Inbox; the client's next one starts a new item.
    expect((await noraClient.post("/api/messages", { text: "Thank you!" })).status).toBe(201);
    page = await inbox("?show=unread");
    expect(page.items.map((item) => item.summary)).toEqual([{ count: 1, text: "Thank you!", attachments: 0 }]);

    // Reading the conversation marks its item read too.
    expect((await admin.post(`/api/admin/messages/${nora.id}/read`)).status).toBe(200);
    expect((await inbox()).unread).toBe(0);
  });

  it("takes a client's own booking, its move and its cancellation as one item per appointment", async () => {
    const type = await admin.post("/api/admin/meeting-types", { name: "Tax check-in", duration_minutes: 30, location: "office" });
    expect(type.status, type.text).toBe(201);
    const free = await noraClient.get(`/api/appointments/slots?type=${type.body.id}`);
    expect(free.status, free.text).toBe(200);
    const [first, second] = free.body as Array<{ start: string }>;
    const booked = await noraClient.post("/api/appointments/book", { type: type.body.id, start: first!.start });
    expect(booked.status, booked.text).toBe(201);
    let page = await inbox();
    expect(page.items.map(({ kind, subject_id, actor_name, summary }) => ({ kind, subject_id, actor_name, title: summary.title }))).toEqual([
      { kind: "appointment_booked", subject_id: booked.body.id, actor_name: "Nora Inbox", title: "Tax check-in" },
    ]);

    const moved = await noraClient.post(`/api/appointments/${booked.body.id}/reschedule`, { start: second!.start });
    expect(moved.status, moved.text).toBe(200);
    page = await inbox();
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ kind: "appointment_rescheduled", summary: { title: "Tax check-in" } });
    expect(new Date(page.items[0]!.summary.previous_start as string).getTime()).toBe(new Date(first!.start).getTime());
    expect(new Date(page.items[0]!.summary.start as string).getTime()).toBe(new Date(second!.start).getTime());

    // Once the firm has seen it, the cancellation is news of its own.
    await admin.post("/api/admin/inbox/read", { all: true });
    expect((await noraClient.post(`/api/appointments/${booked.body.id}/cancel`)).status).toBe(200);
    page = await inbox("?show=unread");
    expect(page.items.map(({ kind, subject_id }) => ({ kind, subject_id }))).toEqual([{ kind: "appointment_cancelled", subject_id: booked.body.id }]);
  });

  it("shows a staff member only the items of the accounts they reach and the kinds their rights cover", async () => {
    const other = await createUser(server.db, { name: "Olive Elsewhere" });
    const otherApi = await loginClient(server.url, other);
    expect((await otherApi.post("/api/messages", { text: "Hello from elsewhere" })).status).toBe(201);
    expect((await noraClient.post("/api/messages", { text: "Hello from Nora" })).status).toBe(201);
    expect((await upload("assigned.pdf")).status).toBe(201);

    const preparer = await createStaffMember(server.db, "staff", ["messages"]);
    await server.db.insertInto("account_assignees").values({ account_id: nora.id, user_id: preparer.id }).execute();
    const preparerApi = await loginClient(server.url, preparer, "admin");
    const res = await preparerApi.get("/api/admin/inbox");
    expect(res.status, res.text).toBe(200);
    // Nora's conversation only: Olive's account is not theirs, and uploads need the documents right.
    expect((res.body.items as InboxItem[]).map(({ kind, client_id }) => ({ kind, client_id }))).toEqual([{ kind: "message", client_id: nora.id }]);
    // Nor may they answer Olive by her account's id: the same 404 as a missing one.
    const foreign = await trpcMutation(preparerApi, "admin.messages.send", { account_id: other.id, text: "Hi" });
    expect(foreign.status).toBe(404);
  });

  it("turns a consultation request into an invited client in one step", async () => {
    const email = `prospect-${Date.now()}@example.com`;
    const sent = await new ApiClient(server.url).post("/api/consultation/request", {
      name: "Dana Scully",
      email,
      phone: "(202) 555-0199",
      service: "bookkeeping",
    });
    expect(sent.status, sent.text).toBe(200);
    const [item] = (await inbox()).items;
    expect(item).toMatchObject({ kind: "consultation", client_id: null, actor_name: null, summary: { name: "Dana Scully" } });

    const invited = await admin.post(`/api/admin/consultations/${item!.subject_id}/invite`);
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body).toMatchObject({ name: "Dana Scully", email, status: "pending", account_id: expect.any(String) });
    const account = await admin.get(`/api/admin/accounts/${invited.body.account_id}`);
    expect(account.status, account.text).toBe(200);
    expect(account.body.name).toBe("Dana Scully");
    const consultation = await server.db
      .selectFrom("consultation_requests")
      .select("handled_at")
      .where("id", "=", item!.subject_id)
      .executeTakeFirstOrThrow();
    expect(consultation.handled_at).not.toBeNull();
    // The invitation is waiting: a second click is refused as any second invitation is.
    expect((await admin.post(`/api/admin/consultations/${item!.subject_id}/invite`)).status).toBe(409);
    expect((await admin.post("/api/admin/consultations/00000000-0000-4000-8000-000000000000/invite")).status).toBe(404);
    expect((await noraClient.post(`/api/admin/consultations/${item!.subject_id}/invite`)).status).toBe(403);
  });
});

/** A tRPC mutation over HTTP, for a procedure that has no REST path of its own. */
function trpcMutation(client: ApiClient, path: string, input: unknown) {
  return client.post(`/trpc/${path}`, { json: input });
}

describe("reading the Inbox", () => {
  it("marks items read one by one or all at once, and counts what is left", async () => {
    for (const name of ["a.txt", "b.txt", "c.txt"]) {
      expect((await upload(name)).status).toBe(201);
      await ageInbox(11);
    }
    const { items } = await inbox();
    expect(items).toHaveLength(3);

    const one = await admin.post("/api/admin/inbox/read", { ids: [items[1]!.id] });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual({ unread: 2 });
    expect((await inbox()).items.map((item) => item.read)).toEqual([false, true, false]);
    expect((await inbox("?show=unread")).items.map((item) => item.id)).toEqual([items[0]!.id, items[2]!.id]);
    // Opening an item twice, or one that is gone, is no error.
    expect((await admin.post("/api/admin/inbox/read", { ids: [items[1]!.id, "999999999"] })).body).toEqual({ unread: 2 });

    expect((await admin.get("/api/admin/inbox/unread")).body).toEqual({ unread: 2 });
    expect((await admin.post("/api/admin/inbox/read", { all: true })).body).toEqual({ unread: 0 });
    expect((await inbox()).items.every((item) => item.read)).toBe(true);
  });

  it("pages newest first by keyset, each item exactly once", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await upload(`page-${i}.txt`)).status).toBe(201);
      await ageInbox(11);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await inbox(`?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.items.map((item) => (item.summary.names as string[])[0]!));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(["page-4.txt", "page-3.txt", "page-2.txt", "page-1.txt", "page-0.txt"]);
  });

  it("answers bad input with 422 and a precise detail", async () => {
    const cases: Array<[string, unknown, string]> = [
      ["/api/admin/inbox/read", { ids: [] }, "ids must name at least one item"],
      ["/api/admin/inbox/read", { ids: ["abc"] }, "ids must be Inbox item ids"],
      ["/api/admin/inbox/read", { all: false }, "Send ids (a list of Inbox item ids) or all: true"],
    ];
    for (const [path, body, detail] of cases) {
      const res = await admin.post(path, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail).toContain(detail);
    }
    for (const [query, detail] of [
      ["?show=everything", "show must be all or unread"],
      ["?limit=0", "limit must be 1 to 100"],
      ["?cursor=nope", "cursor is not valid"],
    ]) {
      const res = await admin.get(`/api/admin/inbox${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.detail).toContain(detail);
    }
  });

  it("is the firm's alone", async () => {
    expect((await noraClient.get("/api/admin/inbox")).status).toBe(403);
    expect((await noraClient.post("/api/admin/inbox/read", { all: true })).status).toBe(403);
    expect((await new ApiClient(server.url).get("/api/admin/inbox/unread")).status).toBe(401);
  });

  it("forgets a client's items with the client's account", async () => {
    const leaving = await createUser(server.db, { name: "Leaving Client" });
    await server.db
      .insertInto("inbox_items")
      .values({
        kind: "upload",
        account_id: leaving.id,
        subject_id: "x",
        summary: JSON.stringify({ count: 1, names: ["x.pdf"] }),
        first_at: new Date(),
        last_at: new Date(),
      })
      .execute();
    expect((await inbox()).items.some((item) => item.client_id === leaving.id)).toBe(true);
    await server.db.deleteFrom("users").where("id", "=", leaving.id).execute();
    expect((await inbox()).items.some((item) => item.client_id === leaving.id)).toBe(false);
  });
});
