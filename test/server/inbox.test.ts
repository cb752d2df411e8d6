// The firm's Inbox: each kind of arrival lands there in its change's transaction (a client's
// uploads, grouped while they keep coming; a submitted request; a consultation request; an
// appointment waiting for approval), unread until opened; only admins read or mark it.
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
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
    expect(page.items[0]).toMatchObject({ kind: "upload", client_id: nora.id, client_label: nora.username, read: false });
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
      { kind: "consultation", client_id: null, subject_id: expect.any(String), summary: { name: "Fox Mulder", service: "tax-prep" } },
      { kind: "request_submitted", client_id: nora.id, subject_id: created.body.id, summary: { title: "2025 W-2 forms" } },
    ]);
  });
});

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
