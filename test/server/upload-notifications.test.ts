// Emails about uploads, received by the real SMTP test server: the firm's uploads to a client make
// one "documents waiting" email per 5-minute batch (no document, and no names while the firm's
// setting is off); a client's uploads make one digest per 10 minutes to the firm's address, with
// names and folders but no contents. The windows run on the test server's clock; a batch's email
// job waits in pg-boss until its due time, which the test moves to now instead of waiting.
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser, loginClient, makeHousehold, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const MINUTE = 60 * 1000;
const FIRM_EMAIL = "office@harborline.test";
const SECRET_CONTENT = "SSN 078-05-1120 do not mail";

let smtp: TestSmtpServer;
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, FIRM_EMAIL } });
  server.clock.set(new Date("2027-04-12T15:00:00Z"));
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
});
afterAll(async () => {
  await server.close();
  await smtp.stop();
});
beforeEach(async () => {
  await admin.put("/api/admin/notification-settings", { include_document_names_in_emails: true });
});

async function newClient(name: string): Promise<{ user: UserFixture; client: ApiClient; folderId: string }> {
  const user = await createUser(server.db, { name });
  await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
  const client = await loginClient(server.url, user);
  const folder = await client.post("/api/folders", { name: "Taxes 2026" });
  return { user, client, folderId: folder.body.id };
}

function form(filename: string, folderId?: string): FormData {
  const body = new FormData();
  if (folderId) body.append("folder_id", folderId);
  body.append("file", new Blob([SECRET_CONTENT], { type: "text/plain" }), filename);
  return body;
}

async function firmShares(userId: string, filename: string, folderId?: string): Promise<void> {
  const res = await admin.request("POST", `/api/admin/users/${userId}/documents`, { body: form(filename, folderId) });
  expect(res.status, res.text).toBe(201);
}

async function clientUploads(client: ApiClient, filename: string, folderId?: string): Promise<string> {
  const res = await client.request("POST", "/api/documents/upload", { body: form(filename, folderId) });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** The upload emails queued (waiting or done) for one client's batches, by kind. */
async function queuedMails(userId: string, kind: "documents-shared" | "upload-digest"): Promise<number> {
  const rows = await sql<{ n: number }>`
    select count(*)::int as n from pgboss.job j join upload_notices n on n.id::text = j.data->>'noticeId'
    where j.name = 'email' and j.data->>'kind' = ${kind} and n.account_id = ${userId}`.execute(server.db);
  return rows.rows[0]!.n;
}

/** Makes the waiting upload emails due now, as if their window had passed (pg-boss runs on the database's clock). */
async function releaseUploadMails(): Promise<void> {
  await sql`update pgboss.job set start_after = now()
    where name = 'email' and state = 'created' and data->>'kind' in ('documents-shared', 'upload-digest')`.execute(server.db);
}

/** Waits until every upload email of the client's batches has run (sent, or found nothing to send). */
async function uploadMailsDone(userId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const rows = await sql<{ n: number }>`
      select count(*)::int as n from pgboss.job j join upload_notices n on n.id::text = j.data->>'noticeId'
      where j.name = 'email' and n.account_id = ${userId} and j.state <> 'completed'`.execute(server.db);
    if (rows.rows[0]!.n === 0) return;
    if (Date.now() > deadline) throw new Error("upload emails still waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every mail to `to` whose subject matches, after giving the queue time to send any extra. */
async function settledMails(to: string, subject: RegExp, expected: number): Promise<ReceivedMail[]> {
  const matching = () => smtp.messages.filter((m) => m.to.includes(to) && subject.test(m.subject));
  const deadline = Date.now() + 30_000;
  while (matching().length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  // An extra mail, if the batching were wrong, would follow within the queue's polling interval.
  await new Promise((r) => setTimeout(r, 1500));
  return matching();
}

describe("the client's email when the firm shares documents", () => {
  it("three uploads within 5 minutes make one email, naming no document while names are off", async () => {
    const { user, folderId } = await newClient("Dana Waiting");
    await admin.put("/api/admin/notification-settings", { include_document_names_in_emails: false });
    await firmShares(user.id, "Dana 2026 return.pdf", folderId);
    server.clock.advance(2 * MINUTE);
    await firmShares(user.id, "Dana engagement letter.txt");
    server.clock.advance(2 * MINUTE + 50 * 1000);
    await firmShares(user.id, "Dana invoice.txt", folderId);
    expect(await queuedMails(user.id, "documents-shared")).toBe(1);
    expect(await queuedMails(user.id, "upload-digest")).toBe(0);

    await releaseUploadMails();
    const mails = await settledMails(user.email, /waiting for you/, 1);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe("3 documents are waiting for you - Harborline Accounting & Business Services");
    expect(mail!.text).toContain("shared 3 documents with you");
    expect(mail!.text).toContain(`${server.deps.config.publicUrl}/dashboard`);
    expect(mail!.attachments).toEqual([]);
    for (const name of ["Dana 2026 return", "engagement letter", "invoice", "Taxes 2026", SECRET_CONTENT]) {
      expect(mail!.raw).not.toContain(name);
    }
    // Nothing went to the firm about the firm's own uploads.
    expect(smtp.messages.filter((m) => m.to.includes(FIRM_EMAIL) && m.text.includes("Dana Waiting"))).toEqual([]);
  });

  it("an upload after the window makes a new email; names and folders appear while the setting is on", async () => {
    const { user, folderId } = await newClient("Eli Later");
    await firmShares(user.id, "Eli W-2 copy.txt", folderId);
    server.clock.advance(5 * MINUTE + 1000);
    // The first batch's email has not run yet, but its window is over: this upload starts the next batch.
    await firmShares(user.id, "Eli organizer.txt");
    expect(await queuedMails(user.id, "documents-shared")).toBe(2);

    await releaseUploadMails();
    const mails = await settledMails(user.email, /waiting for you/, 2);
    expect(mails).toHaveLength(2);
    const first = mails.find((m) => m.text.includes("Eli W-2 copy.txt"))!;
    const second = mails.find((m) => m.text.includes("Eli organizer.txt"))!;
    expect(first.subject).toMatch(/^A document is waiting for you/);
    expect(first.text).toContain("Eli W-2 copy.txt: in Taxes 2026");
    expect(first.text).not.toContain("Eli organizer.txt");
    expect(second.text).toContain("Eli organizer.txt: in Documents (root)");
    expect(second.text).not.toContain("W-2");
    for (const mail of mails) expect(mail.raw).not.toContain(SECRET_CONTENT);

    // The batches are closed: a third upload opens a third.
    await firmShares(user.id, "Eli extension.txt");
    expect(await queuedMails(user.id, "documents-shared")).toBe(3);
  });

  it("sends nothing when every shared document was taken back before the email", async () => {
    const { user } = await newClient("Fay Withdrawn");
    const res = await admin.request("POST", `/api/admin/users/${user.id}/documents`, { body: form("Fay draft.txt") });
    expect((await admin.delete(`/api/admin/documents/${res.body.id}`)).status).toBe(200);
    expect(await queuedMails(user.id, "documents-shared")).toBe(1);
    await releaseUploadMails();
    await uploadMailsDone(user.id);
    expect(smtp.messages.filter((m) => m.to.includes(user.email))).toEqual([]);
    expect(server.logs.some((line) => line.includes("mail no longer needed") && line.includes("documents-shared"))).toBe(true);
  });
});

describe("the firm's digest of a client's uploads", () => {
  it("one email per 10 minutes to the firm's address, with names and folders and no contents", async () => {
    const { user, client, folderId } = await newClient("Gus Uploader");
    await clientUploads(client, "Gus bank statement.txt", folderId);
    server.clock.advance(4 * MINUTE);
    await clientUploads(client, "Gus receipts.txt");
    server.clock.advance(5 * MINUTE);
    await clientUploads(client, "Gus 1099-INT.txt", folderId);
    expect(await queuedMails(user.id, "upload-digest")).toBe(1);
    expect(await queuedMails(user.id, "documents-shared")).toBe(0);

    await releaseUploadMails();
    const digests = await settledMails(FIRM_EMAIL, /Gus Uploader uploaded/, 1);
    expect(digests).toHaveLength(1);
    const [digest] = digests;
    expect(digest!.subject).toBe("Gus Uploader uploaded 3 documents");
    expect(digest!.headers["reply-to"]).toContain(user.email);
    expect(digest!.text).toContain("Gus bank statement.txt: in Taxes 2026");
    expect(digest!.text).toContain("Gus receipts.txt: in Documents (root)");
    expect(digest!.text).toContain("Gus 1099-INT.txt: in Taxes 2026");
    expect(digest!.text).toContain(`${server.deps.config.publicUrl}/admin/users/${user.id}`);
    expect(digest!.raw).not.toContain(SECRET_CONTENT);
    expect(digest!.attachments).toEqual([]);
    // The client hears nothing about their own uploads.
    expect(smtp.messages.filter((m) => m.to.includes(user.email))).toEqual([]);

    // After the window (its email already sent), the next upload makes a new digest of its own.
    server.clock.advance(10 * MINUTE);
    await clientUploads(client, "Gus late form.txt");
    await releaseUploadMails();
    const after = await settledMails(FIRM_EMAIL, /Gus Uploader uploaded/, 2);
    expect(after).toHaveLength(2);
    expect(after[1]!.subject).toBe("Gus Uploader uploaded 1 document");
    expect(after[1]!.text).toContain("Gus late form.txt");
    expect(after[1]!.text).not.toContain("bank statement");
  });

  it("a household's batch names who uploaded each file, not only the account's first person", async () => {
    const { user: maria, client: mariaApi, folderId } = await newClient("Maria Household");
    const james = await createUser(server.db, { name: "James Household" });
    await makeHousehold(server.db, { owner: maria, member: james, name: "Household family", verifiedAt: new Date() });
    const jamesApi = await loginClient(server.url, james);
    await clientUploads(mariaApi, "Maria W-2.txt", folderId);
    await clientUploads(jamesApi, "James W-2.txt");
    await releaseUploadMails();
    const [digest] = await settledMails(FIRM_EMAIL, /Household uploaded/, 1);
    expect(digest!.subject).toBe("Maria Household and James Household uploaded 2 documents");
    expect(digest!.text).toContain("Maria W-2.txt: in Taxes 2026, by Maria Household");
    expect(digest!.text).toContain("James W-2.txt: in Documents (root), by James Household");
    await uploadMailsDone(maria.id);
  });

  it("goes to the site's contact email when there is one, and names nothing while names are off", async () => {
    const contact = "frontdesk@harborline.test";
    expect((await admin.put("/api/admin/site-content/contact/email", { value: contact })).status).toBe(200);
    await admin.put("/api/admin/notification-settings", { include_document_names_in_emails: false });
    const { client } = await newClient("Hal Private");
    await clientUploads(client, "Hal divorce settlement.txt");
    await releaseUploadMails();
    const [digest] = await settledMails(contact, /Hal Private uploaded/, 1);
    expect(digest).toBeDefined();
    expect(digest!.text).toContain("Hal Private uploaded 1 document");
    expect(digest!.raw).not.toContain("divorce");
    expect(smtp.messages.filter((m) => m.to.includes(FIRM_EMAIL) && m.subject.includes("Hal Private"))).toEqual([]);
    expect((await admin.delete("/api/admin/site-content/contact/email")).status).toBe(200);
  });
});
