/*
 * Document requests: the firm asks a client for documents, the client uploads against the request
 * (into its folder) and marks it submitted, the firm marks it done or reopens it. Ownership is in
 * every query; each change is in the client's trail; the mail (to the client when asked and
 * reminded, to the firm when submitted) arrives at the real SMTP test server.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

/** Monday March 1, 2027, 9:00 in Chicago (CST). */
const NOW = new Date("2027-03-01T15:00:00Z");
const FIRM_EMAIL = "office@harborline.test";
const FIRM = "Harborline Accounting & Business Services";

let smtp: TestSmtpServer;
let server: TestServer;
let admin: ApiClient;
let adminUser: UserFixture;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, FIRM_EMAIL } });
  server.clock.set(NOW);
  adminUser = await createUser(server.db, { is_admin: true });
  admin = await loginClient(server.url, adminUser, "admin");
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});
beforeEach(() => {
  server.clock.set(NOW);
});

async function client(name = "Rowan Ellis"): Promise<{ user: UserFixture; api: ApiClient }> {
  const user = await createUser(server.db, { name });
  await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
  return { user, api: await loginClient(server.url, user) };
}

async function folderOf(api: ApiClient, name: string): Promise<string> {
  const res = await api.post("/api/folders", { name });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function ask(body: Record<string, unknown>) {
  const res = await admin.post("/api/admin/requests", body);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; status: string; folder_id: string | null };
}

function upload(api: ApiClient, fields: Record<string, string>, name = "w2.txt") {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("file", new Blob([randomBytes(64).toString("hex")], { type: "text/plain" }), name);
  return api.request("POST", "/api/documents/upload", { body: form });
}

async function ownRequest(api: ApiClient, id: string) {
  const res = await api.get("/api/requests");
  expect(res.status, res.text).toBe(200);
  return (res.body as Array<{ id: string } & Record<string, unknown>>).find((r) => r.id === id);
}

describe("the firm's requests", () => {
  it("creates, lists by client and status, and marks done or reopens with a comment", async () => {
    const { user, api } = await client();
    const folder = await folderOf(api, "Taxes 2026");
    const created = await admin.post("/api/admin/requests", {
      user_id: user.id,
      title: "  2026 W-2 forms ",
      description: "Both employers, please",
      due_date: "2027-03-15",
      folder_id: folder,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      user_id: user.id,
      client_label: user.username,
      client_name: "Rowan Ellis",
      title: "2026 W-2 forms",
      description: "Both employers, please",
      due_date: "2027-03-15",
      overdue: false,
      status: "open",
      folder_id: folder,
      folder_name: "Taxes 2026",
      comment: null,
      document_count: 0,
      submitted_at: null,
      done_at: null,
    });
    const id = created.body.id as string;
    const other = await ask({ user_id: user.id, title: "Bank statements" });
    expect(other).toMatchObject({ folder_id: null, status: "open" });

    const listed = await admin.get(`/api/admin/requests?user_id=${user.id}`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.headers.get("x-total-count")).toBe("2");
    expect(listed.body.map((r: { id: string }) => r.id)).toEqual([other.id, id]);
    const searched = await admin.get(`/api/admin/requests?q=${encodeURIComponent("w-2 FORMS")}&user_id=${user.id}`);
    expect(searched.body.map((r: { id: string }) => r.id)).toEqual([id]);
    const byClient = await admin.get(`/api/admin/requests?q=${encodeURIComponent(user.email)}`);
    expect(byClient.body.map((r: { id: string }) => r.id)).toEqual([other.id, id]);

    const done = await admin.patch(`/api/admin/requests/${id}`, { status: "done", comment: "Thanks, all there" });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ status: "done", comment: "Thanks, all there" });
    expect(done.body.done_at).not.toBeNull();
    const onlyDone = await admin.get(`/api/admin/requests?user_id=${user.id}&status=done`);
    expect(onlyDone.body.map((r: { id: string }) => r.id)).toEqual([id]);
    expect(await ownRequest(api, id)).toMatchObject({ status: "done", comment: "Thanks, all there" });

    const reopened = await admin.patch(`/api/admin/requests/${id}`, { status: "open", comment: "The second W-2 is missing" });
    expect(reopened.body).toMatchObject({ status: "open", comment: "The second W-2 is missing", done_at: null });

    // The client's list: open ones first, soonest due first, undated last.
    const mine = await api.get("/api/requests");
    expect(mine.body.map((r: { id: string }) => r.id)).toEqual([id, other.id]);
  });

  it("refuses a folder of another client, an unknown client, an admin, a past due date and bad input", async () => {
    const { user } = await client();
    const { api: stranger } = await client("Someone Else");
    const foreignFolder = await folderOf(stranger, "Theirs");
    const refused = async (body: Record<string, unknown>) => {
      const res = await admin.post("/api/admin/requests", body);
      return [res.status, res.body.detail];
    };
    expect(await refused({ user_id: user.id, title: "W-2", folder_id: foreignFolder })).toEqual([404, "Folder not found"]);
    expect(await refused({ user_id: randomUUID(), title: "W-2" })).toEqual([404, "User not found"]);
    const adminUser = await createUser(server.db, { is_admin: true });
    expect(await refused({ user_id: adminUser.id, title: "W-2" })).toEqual([404, "User not found"]);
    expect(await refused({ user_id: user.id, title: "W-2", due_date: "2027-02-28" })).toEqual([422, "Due date must be today or later"]);
    expect(await refused({ user_id: user.id, title: "W-2", due_date: "2027-02-30" })).toEqual([422, "Due date must be a date (YYYY-MM-DD)"]);
    expect(await refused({ user_id: user.id, title: "   " })).toEqual([422, "Title is required"]);
    expect(await refused({ user_id: user.id, title: "x".repeat(201) })).toEqual([422, "Title must be at most 200 characters"]);
    expect((await admin.patch(`/api/admin/requests/${randomUUID()}`, { status: "done" })).status).toBe(404);
    expect(await admin.patch(`/api/admin/requests/${randomUUID()}`, { status: "closed" })).toMatchObject({
      status: 422,
      body: { detail: "Status must be open, submitted or done" },
    });
    expect(await server.db.selectFrom("document_requests").select("id").where("account_id", "=", user.id).execute()).toEqual([]);
  });

  it("marks an open request overdue once its due date has passed on the firm's calendar", async () => {
    const { user, api } = await client();
    const { id } = await ask({ user_id: user.id, title: "Receipts", due_date: "2027-03-01" });
    expect(await ownRequest(api, id)).toMatchObject({ overdue: false });
    // 23:30 in Chicago on the due date: still not overdue, though it is the 2nd in UTC.
    server.clock.set(new Date("2027-03-02T05:30:00Z"));
    expect(await ownRequest(api, id)).toMatchObject({ overdue: false });
    server.clock.set(new Date("2027-03-02T06:30:00Z"));
    expect(await ownRequest(api, id)).toMatchObject({ overdue: true });
    // Past the admin session's idle limit on the moved clock: a new sign-in.
    const listed = await (await loginClient(server.url, adminUser, "admin")).get(`/api/admin/requests?user_id=${user.id}`);
    expect(listed.body[0]).toMatchObject({ id, overdue: true });
  });
});

describe("uploading against a request and submitting it", () => {
  it("puts the upload in the request's folder, attaches it, and submits only with a document attached", async () => {
    const { user, api } = await client();
    const requestFolder = await folderOf(api, "For the firm");
    const elsewhere = await folderOf(api, "Elsewhere");
    const { id } = await ask({ user_id: user.id, title: "W-2 forms", folder_id: requestFolder });

    const empty = await api.post(`/api/requests/${id}/submit`);
    expect(empty.status, empty.text).toBe(422);
    expect(empty.body.detail).toBe("Upload at least one document for this request before marking it submitted");

    const uploaded = await upload(api, { request_id: id, folder_id: elsewhere }, "w2-acme.txt");
    expect(uploaded.status, uploaded.text).toBe(201);
    expect(uploaded.body.folder_id).toBe(requestFolder);
    const row = await server.db
      .selectFrom("documents")
      .select(["request_id", "folder_id"])
      .where("id", "=", uploaded.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ request_id: id, folder_id: requestFolder });
    expect(await ownRequest(api, id)).toMatchObject({ documents: [{ id: uploaded.body.id, original_filename: "w2-acme.txt" }] });
    expect((await admin.get(`/api/admin/requests?user_id=${user.id}`)).body[0]).toMatchObject({ id, document_count: 1 });

    const submitted = await api.post(`/api/requests/${id}/submit`);
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body).toMatchObject({ id, status: "submitted" });
    expect(submitted.body.submitted_at).not.toBeNull();
    expect((await api.post(`/api/requests/${id}/submit`)).body.detail).toBe("This request is already submitted");

    const late = await upload(api, { request_id: id });
    expect([late.status, late.body.detail]).toEqual([409, "This request is no longer open for uploads"]);
    expect((await admin.get(`/api/admin/requests?user_id=${user.id}&status=submitted`)).body.map((r: { id: string }) => r.id)).toEqual([id]);
  });

  it("uses the folder the client chose (or the root) for a request without one; a trashed document does not count", async () => {
    const { user, api } = await client();
    const chosen = await folderOf(api, "Mine");
    const { id } = await ask({ user_id: user.id, title: "Statements" });
    const inChosen = await upload(api, { request_id: id, folder_id: chosen });
    expect(inChosen.status, inChosen.text).toBe(201);
    expect(inChosen.body.folder_id).toBe(chosen);
    const inRoot = await upload(api, { request_id: id });
    expect(inRoot.body.folder_id).toBeNull();
    for (const documentId of [inChosen.body.id, inRoot.body.id]) expect((await api.delete(`/api/documents/${documentId}`)).status).toBe(200);
    expect((await api.post(`/api/requests/${id}/submit`)).status).toBe(422);
    expect(await ownRequest(api, id)).toMatchObject({ documents: [] });
  });

  it("keeps every client to their own requests: another's answers like a missing one, and nothing is stored", async () => {
    const { user } = await client("Owner");
    const { user: strangerUser, api: stranger } = await client("Stranger");
    const { id } = await ask({ user_id: user.id, title: "Private" });
    expect((await stranger.get("/api/requests")).body).toEqual([]);

    const foreign = await stranger.post(`/api/requests/${id}/submit`);
    const missing = await stranger.post(`/api/requests/${randomUUID()}/submit`);
    expect([foreign.status, foreign.body]).toEqual([404, { detail: "Request not found" }]);
    expect([missing.status, missing.body]).toEqual([foreign.status, foreign.body]);

    const foreignUpload = await upload(stranger, { request_id: id });
    const missingUpload = await upload(stranger, { request_id: randomUUID() });
    expect([foreignUpload.status, foreignUpload.body]).toEqual([404, { detail: "Request not found" }]);
    expect([missingUpload.status, missingUpload.body]).toEqual([foreignUpload.status, foreignUpload.body]);
    expect(await server.db.selectFrom("documents").select("id").where("account_id", "=", strangerUser.id).execute()).toEqual([]);
    expect((await upload(stranger, { request_id: "not-an-id" })).status).toBe(422);

    expect((await stranger.get("/api/admin/requests")).status).toBe(403);
    expect((await stranger.post("/api/admin/requests", { user_id: strangerUser.id, title: "Mine now" })).status).toBe(403);
    expect((await stranger.patch(`/api/admin/requests/${id}`, { status: "done" })).status).toBe(403);
  });

  it("records each step in the client's trail", async () => {
    const { user, api } = await client();
    const { id } = await ask({ user_id: user.id, title: "1099s", due_date: "2027-04-01" });
    expect((await upload(api, { request_id: id }, "1099-int.txt")).status).toBe(201);
    expect((await api.post(`/api/requests/${id}/submit`)).status).toBe(200);
    expect((await admin.patch(`/api/admin/requests/${id}`, { status: "done" })).status).toBe(200);
    const events = await server.db
      .selectFrom("activity_events")
      .select(["action", "actor_role", "target_id", "detail"])
      .where("account_id", "=", user.id)
      .where("action", "in", ["request.create", "request.update", "document.upload"])
      .orderBy("id")
      .execute();
    expect(events).toEqual([
      { action: "request.create", actor_role: "admin", target_id: id, detail: { title: "1099s", due_date: "2027-04-01", status: "open" } },
      {
        action: "document.upload",
        actor_role: "client",
        target_id: expect.any(String),
        detail: { filename: "1099-int.txt", folder: null, request: "1099s" },
      },
      { action: "request.update", actor_role: "client", target_id: id, detail: { title: "1099s", status: "submitted", previous_status: "open" } },
      { action: "request.update", actor_role: "admin", target_id: id, detail: { title: "1099s", status: "done", previous_status: "submitted" } },
    ]);
    const trail = await api.get("/api/activity?limit=10");
    expect(trail.body.items.map((item: { action: string }) => item.action)).toContain("request.update");
  });
});

describe("request emails", () => {
  /** Waits until no mail about a request is still to be sent (other features' delayed mail is left alone). */
  async function settledMail(): Promise<void> {
    const pending = async () => {
      const { rows } = await sql<{ count: number }>`
        select count(*)::int as count from pgboss.job
        where name = 'email' and data->>'kind' like 'document-request-%' and state in ('created', 'retry', 'active')`.execute(server.db);
      return rows[0]!.count;
    };
    await expect.poll(pending, { timeout: 10_000 }).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  function mailTo(email: string): ReceivedMail[] {
    return smtp.messages.filter((mail) => mail.to.includes(email));
  }

  async function sweep(): Promise<void> {
    const id = await server.deps.jobs.send("document-request-reminders", {});
    await expect
      .poll(async () => (await server.deps.jobs.boss.findJobs("document-request-reminders", { id }))[0]?.state, {
        timeout: 10_000,
      })
      .toBe("completed");
    await settledMail();
  }

  it("tells the client when the firm asks (title, due date, portal link) and the firm when the client submits", async () => {
    const { user, api } = await client("Gale Hawthorne");
    const { id } = await ask({ user_id: user.id, title: "2026 W-2 forms", description: "Secret note", due_date: "2027-03-15" });
    const asked = await smtp.waitForMail(user.email, /^Document request/);
    expect(asked.subject).toBe(`Document request: 2026 W-2 forms - ${FIRM}`);
    expect(asked.text).toContain("Hello Gale Hawthorne,");
    expect(asked.text).toContain("Request: 2026 W-2 forms");
    expect(asked.text).toContain("Due: Monday, March 15, 2027");
    expect(asked.text).toContain(`${server.url}/dashboard`);
    expect(asked.text).not.toContain("Secret note");

    expect((await upload(api, { request_id: id }, "w2-acme.txt")).status).toBe(201);
    expect((await api.post(`/api/requests/${id}/submit`)).status).toBe(200);
    const submitted = await smtp.waitForMail(FIRM_EMAIL, /^Submitted: 2026 W-2 forms/);
    expect(submitted.subject).toBe(`Submitted: 2026 W-2 forms (${user.username})`);
    expect(submitted.text).toContain("Gale Hawthorne");
    expect(submitted.text).toContain("w2-acme.txt");
    expect(submitted.text).toContain(`${server.url}/admin/dashboard?tab=requests`);
    expect(submitted.headers["reply-to"]).toContain(user.email);
  });

  it("tells the firm which checklist items a client submitted without: its Inbox, the trail and the mail (issue 48)", async () => {
    const { user, api } = await client("Nell Crane");
    const created = await admin.post("/api/admin/requests", {
      user_id: user.id,
      title: "2026 tax documents",
      items: [{ title: "2026 W-2" }, { title: "1099-INT" }, { title: "Property tax bill" }],
    });
    expect(created.status, created.text).toBe(201);
    const request = created.body as { id: string; items: Array<{ id: string }> };
    expect((await upload(api, { request_id: request.id, request_item_id: request.items[0]!.id }, "w2.txt")).status).toBe(201);
    expect((await api.post(`/api/requests/${request.id}/submit`)).status).toBe(200);

    const inbox = await server.db.selectFrom("inbox_items").select("summary").where("subject_id", "=", request.id).executeTakeFirstOrThrow();
    expect(inbox.summary).toEqual({ title: "2026 tax documents", missing: ["1099-INT", "Property tax bill"] });
    const trail = await server.db
      .selectFrom("activity_events")
      .select("detail")
      .where("action", "=", "request.update")
      .where("target_id", "=", request.id)
      .executeTakeFirstOrThrow();
    expect(trail.detail).toMatchObject({ status: "submitted", missing_items: ["1099-INT", "Property tax bill"] });
    const submitted = await smtp.waitForMail(FIRM_EMAIL, /^Submitted: 2026 tax documents/);
    expect(submitted.text).toContain("They submitted it without 2 items of its checklist.");
    expect(submitted.text).toContain("Still needed (2): 1099-INT\nProperty tax bill");
    // What the firm reads of the request says it too: those items are still open.
    const firm = (
      (await admin.get(`/api/admin/requests?q=Nell`)).body as Array<{ id: string; status: string; items: Array<{ status: string }> }>
    ).find((r) => r.id === request.id)!;
    expect(firm.status).toBe("submitted");
    expect(firm.items.map((i) => i.status)).toEqual(["uploaded", "open", "open"]);
  });

  it("leaves the file names out of the firm's mail when the firm turns names off", async () => {
    expect((await admin.put("/api/admin/notification-settings", { include_document_names_in_emails: false })).status).toBe(200);
    try {
      const { user, api } = await client("Rue Barley");
      const { id } = await ask({ user_id: user.id, title: "Pay stubs" });
      expect((await upload(api, { request_id: id }, "stub-ssn-123-45-6789.txt")).status).toBe(201);
      expect((await api.post(`/api/requests/${id}/submit`)).status).toBe(200);
      const submitted = await smtp.waitForMail(FIRM_EMAIL, /^Submitted: Pay stubs/);
      expect(submitted.text).toContain("Documents: 1");
      expect(submitted.text).not.toContain("stub-ssn");
    } finally {
      await admin.put("/api/admin/notification-settings", { include_document_names_in_emails: true });
    }
  });

  it("tells the client when the firm reopens a request, without the firm's note, and not when it marks it done", async () => {
    const { user, api } = await client("Primrose Everdeen");
    const { id } = await ask({ user_id: user.id, title: "Bank statements", due_date: "2027-03-15" });
    await smtp.waitForMail(user.email, /^Document request/);
    expect((await upload(api, { request_id: id }, "statement.txt")).status).toBe(201);
    expect((await api.post(`/api/requests/${id}/submit`)).status).toBe(200);

    const reopened = await admin.patch(`/api/admin/requests/${id}`, { status: "open", comment: "Page 2 of account 4411 is missing" });
    expect(reopened.status, reopened.text).toBe(200);
    const mail = await smtp.waitForMail(user.email, /^Reopened/);
    expect(mail.subject).toBe(`Reopened: Bank statements - ${FIRM}`);
    expect(mail.text).toContain("Request: Bank statements");
    expect(mail.text).toContain(`${server.url}/dashboard`);
    expect(mail.text).not.toContain("4411");

    expect((await api.post(`/api/requests/${id}/submit`)).status).toBe(200);
    expect((await admin.patch(`/api/admin/requests/${id}`, { status: "done" })).status).toBe(200);
    await settledMail();
    expect(mailTo(user.email).filter((m) => m.subject.startsWith("Reopened"))).toHaveLength(1);
  });

  it("reminds 3 days before and on the due date, once each, from 8:00 on the firm's clock, and only while open", async () => {
    const { user } = await client("Remi Nder");
    const { user: doneUser } = await client("Already Done");
    const { id } = await ask({ user_id: user.id, title: "Receipts", due_date: "2027-03-12" });
    const closed = await ask({ user_id: doneUser.id, title: "Receipts", due_date: "2027-03-12" });
    expect((await admin.patch(`/api/admin/requests/${closed.id}`, { status: "done" })).status).toBe(200);
    // Due in 2 days when asked: the mail about it names the date, so no early reminder follows.
    const { user: soonUser } = await client("Soon Due");
    await ask({ user_id: soonUser.id, title: "Soon", due_date: "2027-03-03" });
    await settledMail();
    const reminders = (email: string) => mailTo(email).filter((mail) => mail.subject.startsWith("Reminder"));

    await sweep();
    expect(reminders(user.email)).toEqual([]);
    expect(reminders(soonUser.email)).toEqual([]);

    // Tuesday March 9, 7:30 in Chicago: 3 days before, but too early in the day.
    server.clock.set(new Date("2027-03-09T13:30:00Z"));
    await sweep();
    expect(reminders(user.email)).toEqual([]);
    server.clock.set(new Date("2027-03-09T14:30:00Z"));
    await sweep();
    expect(reminders(user.email)).toHaveLength(1);
    expect(reminders(user.email)[0]!.subject).toBe(`Reminder: Receipts - ${FIRM}`);
    expect(reminders(user.email)[0]!.text).toContain("the documents we asked for are due on Friday, March 12, 2027");
    await sweep();
    expect(reminders(user.email)).toHaveLength(1);

    server.clock.set(new Date("2027-03-12T16:00:00Z"));
    await sweep();
    expect(reminders(user.email)).toHaveLength(2);
    expect(reminders(user.email)[1]!.text).toContain("the documents we asked for are due today");
    await sweep();
    expect(reminders(user.email)).toHaveLength(2);
    expect(reminders(doneUser.email)).toEqual([]);
    const row = await server.db
      .selectFrom("document_requests")
      .select(["early_reminder_for", "due_reminder_for"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ early_reminder_for: "2027-03-12", due_reminder_for: "2027-03-12" });
  });

  it("sends no reminder queued for a request that is submitted before its mail is written", async () => {
    const { user, api } = await client("Quick Submitter");
    const { id } = await ask({ user_id: user.id, title: "Payroll", due_date: "2027-03-20" });
    expect((await upload(api, { request_id: id })).status).toBe(201);
    expect((await api.post(`/api/requests/${id}/submit`)).status).toBe(200);
    await settledMail();
    const jobId = await server.deps.jobs.send("email", { kind: "document-request-reminder", requestId: id, dueDate: "2027-03-20", reminder: "due" });
    await expect.poll(async () => (await server.deps.jobs.boss.findJobs("email", { id: jobId }))[0]?.state, { timeout: 10_000 }).toBe("completed");
    expect(mailTo(user.email).filter((mail) => mail.subject.startsWith("Reminder"))).toEqual([]);
  });
});

describe("checklists and templates (issue 34)", () => {
  type Item = { id: string; title: string; status: string; documents: Array<{ id: string; original_filename: string }> };
  type ChecklistRequest = { id: string; title: string; description: string; status: string; items: Item[]; documents: Array<{ id: string }> };

  async function trail(requestId: string) {
    return server.db
      .selectFrom("activity_events")
      .select(["action", "detail"])
      .where("target_id", "=", requestId)
      .orderBy("id")
      .execute()
      .then((rows) => rows.map((row) => ({ action: row.action, detail: typeof row.detail === "string" ? JSON.parse(row.detail) : row.detail })));
  }

  it("keeps templates the firm reuses, and makes a request's checklist from one or from items", async () => {
    const bad = [
      [{ title: "", items: [] }, "Title is required"],
      [{ title: "Tax season", items: [{ title: "  " }] }, "Each item needs a title"],
      [{ title: "Tax season", items: Array.from({ length: 51 }, (_, i) => ({ title: `Item ${i}` })) }, "At most 50 items"],
      [{ title: "Tax season", items: "W-2" }, "items must be a list of { title }"],
    ] as const;
    for (const [body, detail] of bad) {
      const res = await admin.post("/api/admin/request-templates", body);
      expect({ status: res.status, detail: res.body.detail }).toEqual({ status: 422, detail });
    }
    const created = await admin.post("/api/admin/request-templates", {
      title: "2026 tax documents",
      description: "What we need for your 2026 return",
      items: [{ title: "2026 W-2 from each employer" }, { title: "Property tax bill" }],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      title: "2026 tax documents",
      description: "What we need for your 2026 return",
      items: [{ title: "2026 W-2 from each employer" }, { title: "Property tax bill" }],
    });
    const templateId = created.body.id as string;
    expect((await admin.patch(`/api/admin/request-templates/${templateId}`, {})).body.detail).toBe(
      "Nothing to change: give a title, description or items",
    );
    const changed = await admin.patch(`/api/admin/request-templates/${templateId}`, {
      items: [{ title: "2026 W-2 from each employer" }, { title: "Property tax bill" }, { title: "1098 mortgage interest" }],
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.title).toBe("2026 tax documents");
    expect(changed.body.items).toHaveLength(3);
    const listed = await admin.get("/api/admin/request-templates");
    expect(listed.body.map((t: { id: string }) => t.id)).toContain(templateId);
    expect((await admin.patch(`/api/admin/request-templates/${randomUUID()}`, { title: "x" })).status).toBe(404);

    const { user, api } = await client("Tamsin Greaves");
    const fromTemplate = await admin.post("/api/admin/requests", { user_id: user.id, template_id: templateId, due_date: "2027-03-15" });
    expect(fromTemplate.status, fromTemplate.text).toBe(201);
    expect(fromTemplate.body).toMatchObject({
      title: "2026 tax documents",
      description: "What we need for your 2026 return",
      status: "open",
      document_count: 0,
      items: [
        { title: "2026 W-2 from each employer", status: "open", done_at: null, documents: [] },
        { title: "Property tax bill", status: "open" },
        { title: "1098 mortgage interest", status: "open" },
      ],
    });
    // The body's own fields win over the template's; a request copies the items, so the template may change or go.
    const ownItems = await admin.post("/api/admin/requests", {
      user_id: user.id,
      template_id: templateId,
      title: "Just the W-2",
      items: [{ title: "W-2 from Acme" }],
    });
    expect(ownItems.body).toMatchObject({
      title: "Just the W-2",
      description: "What we need for your 2026 return",
      items: [{ title: "W-2 from Acme" }],
    });
    expect((await admin.request("DELETE", `/api/admin/request-templates/${templateId}`)).body).toEqual({ success: true });
    expect((await admin.request("DELETE", `/api/admin/request-templates/${templateId}`)).status).toBe(404);
    expect((await admin.post("/api/admin/requests", { user_id: user.id, template_id: templateId })).body).toEqual({ detail: "Template not found" });
    expect((await admin.post("/api/admin/requests", { user_id: user.id })).body).toEqual({ detail: "Title is required" });

    const own = (await ownRequest(api, fromTemplate.body.id)) as unknown as ChecklistRequest;
    expect(own.items.map((item) => [item.title, item.status])).toEqual([
      ["2026 W-2 from each employer", "open"],
      ["Property tax bill", "open"],
      ["1098 mortgage interest", "open"],
    ]);
    // A request without items answers as before, with an empty checklist.
    const plain = await ask({ user_id: user.id, title: "Bank statements" });
    expect((await ownRequest(api, plain.id))?.items).toEqual([]);

    const mail = await smtp.waitForMail(user.email, /^Document request: 2026 tax documents/);
    expect(mail.text).toContain("Property tax bill");
    const actions = (await server.db.selectFrom("activity_events").select("action").where("target_id", "=", templateId).orderBy("id").execute()).map(
      (row) => row.action,
    );
    expect(actions).toEqual(["request_template.create", "request_template.update", "request_template.delete"]);
  });

  it("takes uploads per item (only an item of that request and account), after submitting too, and not once the item is done", async () => {
    const { user, api } = await client("Ines Okafor");
    const other = await client("Other Client");
    const created = await admin.post("/api/admin/requests", {
      user_id: user.id,
      title: "2026 tax documents",
      items: [{ title: "2026 W-2 from each employer" }, { title: "Property tax bill" }],
    });
    const request = created.body as ChecklistRequest;
    const [w2, tax] = request.items as [Item, Item];
    const elsewhere = (await admin.post("/api/admin/requests", { user_id: user.id, title: "Other", items: [{ title: "Other item" }] }))
      .body as ChecklistRequest;
    const theirs = (await admin.post("/api/admin/requests", { user_id: other.user.id, title: "Theirs", items: [{ title: "Their item" }] }))
      .body as ChecklistRequest;

    const refused = [
      [{ request_id: request.id, request_item_id: elsewhere.items[0]!.id }, 404, "Request item not found"],
      [{ request_id: request.id, request_item_id: randomUUID() }, 404, "Request item not found"],
      [{ request_id: theirs.id, request_item_id: theirs.items[0]!.id }, 404, "Request not found"],
      [{ request_item_id: w2.id }, 422, "Send request_id with request_item_id"],
      [{ request_id: request.id, request_item_id: "not-an-id" }, 422, undefined],
    ] as const;
    for (const [fields, status, detail] of refused) {
      const res = await upload(api, fields as Record<string, string>);
      expect({ fields, status: res.status }).toEqual({ fields, status });
      if (detail) expect(res.body.detail).toBe(detail);
    }
    expect((await upload(other.api, { request_id: request.id, request_item_id: w2.id })).status).toBe(404);

    const first = await upload(api, { request_id: request.id, request_item_id: w2.id }, "w2-acme.txt");
    expect(first.status, first.text).toBe(201);
    let own = (await ownRequest(api, request.id)) as unknown as ChecklistRequest;
    expect(own.items.map((item) => [item.status, item.documents.map((d) => d.original_filename)])).toEqual([
      ["uploaded", ["w2-acme.txt"]],
      ["open", []],
    ]);
    expect(own.documents.map((d) => d.id)).toEqual([first.body.id]);
    // The firm's Inbox has the upload.
    const inbox = await server.db.selectFrom("inbox_items").select(["kind", "summary"]).where("account_id", "=", user.id).execute();
    expect(JSON.stringify(inbox)).toContain("w2-acme.txt");

    expect((await api.post(`/api/requests/${request.id}/submit`)).status).toBe(200);
    // After submitting: more for an item is welcome; a loose upload against the request is not (as before).
    const later = await upload(api, { request_id: request.id, request_item_id: tax.id }, "tax-bill.txt");
    expect(later.status, later.text).toBe(201);
    expect((await upload(api, { request_id: request.id })).status).toBe(409);
    expect((await ownRequest(api, request.id))?.status).toBe("submitted");

    const done = await admin.patch(`/api/admin/requests/${request.id}/items/${w2.id}`, { status: "done" });
    expect(done.status, done.text).toBe(200);
    expect((done.body as ChecklistRequest).items.map((item) => item.status)).toEqual(["done", "uploaded"]);
    const late = await upload(api, { request_id: request.id, request_item_id: w2.id });
    expect({ status: late.status, detail: late.body.detail }).toEqual({
      status: 409,
      detail: "This item is marked done; ask the firm to reopen it to change its files",
    });
    const removeDone = await api.request("DELETE", `/api/requests/${request.id}/items/${w2.id}/documents/${first.body.id}`);
    expect(removeDone.status).toBe(409);
    expect((await admin.patch(`/api/admin/requests/${request.id}/items/${w2.id}`, { status: "maybe" })).status).toBe(422);
    expect((await admin.patch(`/api/admin/requests/${request.id}/items/${randomUUID()}`, { status: "done" })).status).toBe(404);
    expect((await admin.patch(`/api/admin/requests/${elsewhere.id}/items/${w2.id}`, { status: "done" })).status).toBe(404);

    const reopened = await admin.patch(`/api/admin/requests/${request.id}/items/${w2.id}`, { status: "open" });
    expect((reopened.body as ChecklistRequest).items[0]!.status).toBe("uploaded");
    const mail = await smtp.waitForMail(user.email, /^Reopened: 2026 W-2 from each employer/);
    expect(mail.text).toContain("Request: 2026 tax documents");

    // A done request takes no more; reopening one of its items reopens it.
    expect((await admin.patch(`/api/admin/requests/${request.id}`, { status: "done" })).status).toBe(200);
    expect((await upload(api, { request_id: request.id, request_item_id: tax.id })).status).toBe(409);
    await admin.patch(`/api/admin/requests/${request.id}/items/${tax.id}`, { status: "done" });
    const again = await admin.patch(`/api/admin/requests/${request.id}/items/${tax.id}`, { status: "open" });
    expect((again.body as ChecklistRequest).status).toBe("open");

    own = (await ownRequest(api, request.id)) as unknown as ChecklistRequest;
    expect(own.items.map((item) => item.status)).toEqual(["uploaded", "uploaded"]);
    expect((await trail(request.id)).filter((e) => e.action === "request.item_update").map((e) => [e.detail.item, e.detail.status])).toEqual([
      ["2026 W-2 from each employer", "done"],
      ["2026 W-2 from each employer", "open"],
      ["Property tax bill", "done"],
      ["Property tax bill", "open"],
    ]);
  });

  it("lets the client remove a wrong file from an item into their trash, only their own and only from that item", async () => {
    const { user, api } = await client("Noor Haddad");
    const other = await client("Someone Else");
    const request = (await admin.post("/api/admin/requests", { user_id: user.id, title: "Receipts", items: [{ title: "Daycare receipts" }] }))
      .body as ChecklistRequest;
    const item = request.items[0]!;
    const wrong = (await upload(api, { request_id: request.id, request_item_id: item.id }, "vacation-photo.txt")).body as { id: string };
    const right = (await upload(api, { request_id: request.id, request_item_id: item.id }, "daycare.txt")).body as { id: string };
    const loose = (await upload(api, { request_id: request.id }, "loose.txt")).body as { id: string };
    const path = (documentId: string) => `/api/requests/${request.id}/items/${item.id}/documents/${documentId}`;

    expect((await other.api.request("DELETE", path(wrong.id))).body).toEqual({ detail: "Request item not found" });
    expect((await api.request("DELETE", path(loose.id))).body).toEqual({ detail: "Document not found on this item" });
    const removed = await api.request("DELETE", path(wrong.id));
    expect(removed.status, removed.text).toBe(200);
    expect((removed.body as ChecklistRequest).items[0]!.documents.map((d) => d.id)).toEqual([right.id]);
    expect((removed.body as ChecklistRequest).documents.map((d) => d.id).sort()).toEqual([right.id, loose.id].sort());
    expect((await api.get("/api/trash")).body.map((d: { id: string }) => d.id)).toContain(wrong.id);
    expect((await api.request("DELETE", path(wrong.id))).status).toBe(404);
    // Restored from the trash, it is an ordinary document again, not back on the item.
    expect((await api.post(`/api/trash/${wrong.id}/restore`)).status).toBe(200);
    expect(((await ownRequest(api, request.id)) as unknown as ChecklistRequest).items[0]!.documents.map((d) => d.id)).toEqual([right.id]);
    const removal = (await trail(request.id)).find((e) => e.action === "request.item_remove");
    expect(removal?.detail).toEqual({ title: "Receipts", item: "Daycare receipts", filename: "vacation-photo.txt" });
  });
});
