// Issue 37, retention and disposal: the firm's rules (documents kept N years after an account's last
// activity, a signed Form 8879 at least 3 years, the trash 30 days), the daily disposal on the
// server's test clock (files gone from the directory and the bucket, data keys and rows deleted, a
// receipt in the trail), a legal hold that stops every disposal, and the list of what goes within 30
// days. The clock moves forward for a disposal and comes back before the next request.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { purgeExpiredTrash } from "../../server/domains/documents/trash.ts";
import { disposeDue } from "../../server/domains/retention/service.ts";
import { createStaffMember, createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestS3, type TestS3 } from "../helpers/s3.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let ownerUser: UserFixture;
let owner: ApiClient;

const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  server = await startTestServer();
  ownerUser = await createStaffMember(server.db, "owner");
  owner = await loginClient(server.url, ownerUser, "admin");
});
afterAll(() => server.close());
afterEach(() => server.clock.set(new Date()));

function yearsAfter(date: Date, years: number, days = 0): Date {
  const at = new Date(date);
  at.setUTCFullYear(at.getUTCFullYear() + years);
  return new Date(at.getTime() + days * DAY_MS);
}

type Doc = { id: string; file_size: number; upload_date: string };

async function upload(client: ApiClient, name: string, bytes = 1000 + Math.floor(Math.random() * 3000)): Promise<Doc> {
  const form = new FormData();
  form.append("file", new Blob([randomBytes(bytes) as Uint8Array<ArrayBuffer>]), name);
  const res = await client.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
  return res.body as Doc;
}

async function keyOf(srv: TestServer, id: string): Promise<string> {
  return (await srv.db.selectFrom("documents").select("storage_key").where("id", "=", id).executeTakeFirstOrThrow()).storage_key;
}

/** The stored object as the local directory holds it, and its data key row. */
async function storedLocally(key: string): Promise<{ file: boolean; dataKey: boolean }> {
  const file = fs.existsSync(path.join(server.dataDir, "documents", key.slice(0, 2), key));
  const dataKey =
    (await server.db.selectFrom("stored_object_keys").select("storage_key").where("storage_key", "=", key).executeTakeFirst()) !== undefined;
  return { file, dataKey };
}

async function documentIds(srv: TestServer, accountId: string): Promise<string[]> {
  const rows = await srv.db.selectFrom("documents").select("id").where("account_id", "=", accountId).execute();
  return rows.map((r) => r.id).sort();
}

async function trail(srv: TestServer, accountId: string, action: string) {
  return srv.db
    .selectFrom("activity_events")
    .select(["actor_role", "actor_label", "detail", "occurred_at"])
    .where("account_id", "=", accountId)
    .where("action", "=", action)
    .orderBy("id")
    .execute();
}

/** Runs the disposal as the daily job would, at `at` on the server's clock. */
async function disposeAt(at: Date) {
  server.clock.set(at);
  try {
    return await disposeDue(server.deps);
  } finally {
    server.clock.set(new Date());
  }
}

async function setRules(years: number, form8879Years = 3) {
  const res = await owner.put("/api/admin/retention", { years_after_last_activity: years, form_8879_years: form8879Years });
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ years_after_last_activity: years, form_8879_years: form8879Years, trash_days: 30 });
}

describe("the firm's retention rules", () => {
  it("are 7 years after last activity, a signed Form 8879 3 years and the trash 30 days by default; the firm changes them, in the trail", async () => {
    expect((await owner.get("/api/admin/retention")).body).toEqual({ years_after_last_activity: 7, form_8879_years: 3, trash_days: 30 });
    await setRules(10, 5);
    expect((await owner.get("/api/admin/retention")).body).toMatchObject({ years_after_last_activity: 10, form_8879_years: 5 });
    const change = await server.db
      .selectFrom("activity_events")
      .select(["detail", "actor_id"])
      .where("action", "=", "settings.update")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(change).toMatchObject({
      actor_id: ownerUser.id,
      detail: { setting: "retention", value: { years_after_last_activity: 10, form_8879_years: 5 } },
    });

    for (const wrong of [
      { years_after_last_activity: 0, form_8879_years: 3 },
      { years_after_last_activity: 51, form_8879_years: 3 },
      { years_after_last_activity: 2.5, form_8879_years: 3 },
      { years_after_last_activity: 7, form_8879_years: 2 },
    ]) {
      expect((await owner.put("/api/admin/retention", wrong)).status, JSON.stringify(wrong)).toBe(422);
    }
    const refused = await owner.put("/api/admin/retention", { years_after_last_activity: 7, form_8879_years: 2 });
    expect(refused.body.detail).toContain("A signed Form 8879 is kept at least 3 years");
    await setRules(7);
  });
});

describe("the daily disposal", () => {
  it("deletes an inactive account's documents on their day and not before: files, data keys and rows, with a receipt per rule", async () => {
    await setRules(7);
    const aliceUser = await createUser(server.db, { name: "Alice Inactive" });
    const alice = await loginClient(server.url, aliceUser);
    const start = server.clock.now();
    const w2 = await upload(alice, "w2.pdf");
    const receipt = await upload(alice, "receipt.jpg");
    const trashed = await upload(alice, "old-draft.pdf");
    expect((await alice.delete(`/api/documents/${trashed.id}`)).status).toBe(200);
    const keys = { w2: await keyOf(server, w2.id), receipt: await keyOf(server, receipt.id), trashed: await keyOf(server, trashed.id) };
    for (const key of Object.values(keys)) expect(await storedLocally(key)).toEqual({ file: true, dataKey: true });

    // Bob uploaded as long ago, but signed in five years later: his clock starts again then.
    const bobUser = await createUser(server.db, { name: "Bob Returning" });
    const bobDoc = await upload(await loginClient(server.url, bobUser), "bob.pdf");
    server.clock.set(yearsAfter(start, 5));
    await loginClient(server.url, bobUser);
    server.clock.set(new Date());

    // A month on: the trash rule takes the trashed one, and only it.
    await disposeAt(new Date(start.getTime() + 31 * DAY_MS));
    expect(await documentIds(server, aliceUser.id)).toEqual([w2.id, receipt.id].sort());
    expect(await storedLocally(keys.trashed)).toEqual({ file: false, dataKey: false });
    const [trashReceipt] = await trail(server, aliceUser.id, "retention.dispose");
    expect(trashReceipt).toMatchObject({
      actor_role: "system",
      detail: {
        rule: "trash",
        trash_days: 30,
        documents: 1,
        bytes: trashed.file_size,
        files: [{ id: trashed.id, filename: "old-draft.pdf", bytes: trashed.file_size }],
      },
    });

    // The day before seven years: nothing more.
    await disposeAt(yearsAfter(start, 7, -1));
    expect(await documentIds(server, aliceUser.id)).toEqual([w2.id, receipt.id].sort());

    // Seven years and a day after the last activity: everything of Alice's, through the job itself.
    server.clock.set(yearsAfter(start, 7, 1));
    try {
      const jobId = await server.deps.jobs.send("retention-disposal", {});
      await expect
        .poll(async () => (await server.deps.jobs.boss.findJobs("retention-disposal", { id: jobId }))[0]?.state, {
          timeout: 20_000,
        })
        .toBe("completed");
    } finally {
      server.clock.set(new Date());
    }
    expect(await documentIds(server, aliceUser.id)).toEqual([]);
    expect(await storedLocally(keys.w2)).toEqual({ file: false, dataKey: false });
    expect(await storedLocally(keys.receipt)).toEqual({ file: false, dataKey: false });
    const receipts = await trail(server, aliceUser.id, "retention.dispose");
    expect(receipts).toHaveLength(2);
    const inactivity = receipts[1]!;
    expect(inactivity.detail).toMatchObject({
      rule: "inactivity",
      years_after_last_activity: 7,
      documents: 2,
      bytes: w2.file_size + receipt.file_size,
    });
    expect((inactivity.detail.files as { filename: string }[]).map((f) => f.filename).sort()).toEqual(["receipt.jpg", "w2.pdf"]);
    // The last activity it was reckoned from: the latest upload still there (the trashed one went a month on).
    expect(inactivity.detail.last_activity_at).toBe(new Date(receipt.upload_date).toISOString());
    // Bob's sign-in five years on keeps his upload.
    expect(await documentIds(server, bobUser.id)).toEqual([bobDoc.id]);

    // Again: nothing left to do, no second receipt.
    await disposeAt(yearsAfter(start, 7, 2));
    expect(await trail(server, aliceUser.id, "retention.dispose")).toHaveLength(2);
    // The firm reads the receipt in the trail.
    const firmTrail = await owner.get(`/api/admin/activity?client_id=${aliceUser.id}&action=retention.dispose`);
    expect(firmTrail.status, firmTrail.text).toBe(200);
    expect(firmTrail.body.items).toHaveLength(2);
  });

  it("stops for an account under a legal hold, the trash purge included, and goes on once it is lifted", async () => {
    await setRules(7);
    const carolUser = await createUser(server.db, { name: "Carol Held" });
    const carol = await loginClient(server.url, carolUser);
    const start = server.clock.now();
    const kept = await upload(carol, "k1.pdf");
    const trashed = await upload(carol, "trashed.pdf");
    expect((await carol.delete(`/api/documents/${trashed.id}`)).status).toBe(200);
    const keys = [await keyOf(server, kept.id), await keyOf(server, trashed.id)];

    const placed = await owner.post(`/api/admin/accounts/${carolUser.id}/legal-hold`, { reason: "Subpoena 2026-114" });
    expect(placed.status, placed.text).toBe(200);
    expect(placed.body).toMatchObject({ account_id: carolUser.id, hold: { reason: "Subpoena 2026-114", placed_by_name: ownerUser.name } });
    expect((await owner.get(`/api/admin/accounts/${carolUser.id}/legal-hold`)).body).toEqual(placed.body);
    expect(await trail(server, carolUser.id, "account.legal_hold")).toEqual([
      expect.objectContaining({ actor_label: ownerUser.username, detail: { reason: "Subpoena 2026-114" } }),
    ]);
    // The client's own trail does not tell of it.
    const clientTrail = await carol.get("/api/activity");
    expect(clientTrail.status).toBe(200);
    expect(JSON.stringify(clientTrail.body)).not.toContain("legal_hold");

    server.clock.set(new Date(start.getTime() + 40 * DAY_MS));
    try {
      expect(await purgeExpiredTrash(server.deps)).toBe(0);
    } finally {
      server.clock.set(new Date());
    }
    await disposeAt(yearsAfter(start, 8));
    expect(await documentIds(server, carolUser.id)).toEqual([kept.id, trashed.id].sort());
    for (const key of keys) expect(await storedLocally(key)).toEqual({ file: true, dataKey: true });
    expect(await trail(server, carolUser.id, "retention.dispose")).toEqual([]);

    // Refusals: a reason is needed; an unknown account is not found.
    expect((await owner.post(`/api/admin/accounts/${carolUser.id}/legal-hold`, { reason: "  " })).status).toBe(422);
    expect((await owner.post("/api/admin/accounts/00000000-0000-4000-8000-000000000000/legal-hold", { reason: "x" })).status).toBe(404);

    const lifted = await owner.delete(`/api/admin/accounts/${carolUser.id}/legal-hold`);
    expect(lifted.status, lifted.text).toBe(200);
    expect(lifted.body).toEqual({ account_id: carolUser.id, hold: null });
    expect((await owner.get(`/api/admin/accounts/${carolUser.id}/legal-hold`)).body).toEqual({ account_id: carolUser.id, hold: null });
    expect(await trail(server, carolUser.id, "account.legal_hold_clear")).toEqual([
      expect.objectContaining({ detail: { reason: "Subpoena 2026-114" } }),
    ]);
    // Lifting it again changes nothing and writes nothing.
    expect((await owner.delete(`/api/admin/accounts/${carolUser.id}/legal-hold`)).body).toEqual({ account_id: carolUser.id, hold: null });
    expect(await trail(server, carolUser.id, "account.legal_hold_clear")).toHaveLength(1);

    await disposeAt(yearsAfter(start, 8));
    expect(await documentIds(server, carolUser.id)).toEqual([]);
    for (const key of keys) expect(await storedLocally(key)).toEqual({ file: false, dataKey: false });
  });

  it("tells the firm, when it deletes a document of a held account, that the hold keeps it (issue 48)", async () => {
    const gailUser = await createUser(server.db, { name: "Gail Held" });
    const gail = await loginClient(server.url, gailUser);
    const first = await upload(gail, "first.pdf");
    const second = await upload(gail, "second.pdf");
    expect((await owner.post(`/api/admin/accounts/${gailUser.id}/legal-hold`, { reason: "Dispute" })).status).toBe(200);
    const deleted = await owner.delete(`/api/admin/documents/${first.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ success: true, legal_hold: true });
    expect((await owner.delete(`/api/admin/accounts/${gailUser.id}/legal-hold`)).status).toBe(200);
    expect((await owner.delete(`/api/admin/documents/${second.id}`)).body).toEqual({ success: true, legal_hold: false });
  });

  it("keeps what a held account's client deletes forever, and the account when its last person is deleted", async () => {
    const erinUser = await createUser(server.db, { name: "Erin Held" });
    const erin = await loginClient(server.url, erinUser);
    const gone = await upload(erin, "deleted-under-hold.pdf");
    expect((await erin.delete(`/api/documents/${gone.id}`)).status).toBe(200);
    const key = await keyOf(server, gone.id);
    expect((await owner.post(`/api/admin/accounts/${erinUser.id}/legal-hold`, { reason: "Audit 2025" })).status).toBe(200);

    // "Delete forever" answers as ever and empties the client's trash; the firm's trash keeps the document.
    const deleted = await erin.delete(`/api/trash/${gone.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect((await erin.get("/api/trash")).body).toEqual([]);
    expect(await storedLocally(key)).toEqual({ file: true, dataKey: true });
    const firmTrash = await owner.get("/api/admin/trash?limit=50&q=deleted-under-hold");
    expect(firmTrash.body.map((d: { id: string }) => d.id)).toEqual([gone.id]);
    // The firm's trail says it was kept; the client's says only what they did.
    expect(await trail(server, erinUser.id, "document.delete_held")).toEqual([
      expect.objectContaining({ actor_role: "client", detail: { filename: "deleted-under-hold.pdf" } }),
    ]);
    const clientTrail = JSON.stringify((await erin.get("/api/activity")).body);
    expect(clientTrail).toContain("document.delete");
    expect(clientTrail).not.toContain("delete_held");

    // The firm cannot delete the account's last person while the hold stands, and is told why.
    const refused = await owner.delete(`/api/admin/users/${erinUser.id}`);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: {
        detail: "This person is the last one of a client account under a legal hold: lift the hold first, or add another person to the account",
      },
    });
    // The client may delete themselves: they go, the held account and its document stay.
    expect((await erin.post("/api/auth/delete-account", { password: erinUser.password })).status).toBe(200);
    expect(await server.db.selectFrom("users").select("id").where("id", "=", erinUser.id).executeTakeFirst()).toBeUndefined();
    expect(await server.db.selectFrom("accounts").select("id").where("id", "=", erinUser.id).executeTakeFirst()).toEqual({ id: erinUser.id });
    expect(await documentIds(server, erinUser.id)).toEqual([gone.id]);
    expect(await storedLocally(key)).toEqual({ file: true, dataKey: true });
    expect(await trail(server, erinUser.id, "user.delete")).toEqual([
      expect.objectContaining({ detail: { by: "self", documents: 0, held_accounts_kept: [erinUser.id] } }),
    ]);

    // Once the hold is lifted, the trash rule disposes of the document.
    expect((await owner.delete(`/api/admin/accounts/${erinUser.id}/legal-hold`)).status).toBe(200);
    await disposeAt(new Date(Date.now() + 31 * DAY_MS));
    expect(await documentIds(server, erinUser.id)).toEqual([]);
    expect(await storedLocally(key)).toEqual({ file: false, dataKey: false });
  });

  it("keeps a signed Form 8879 while its signature lock holds, and as long as the firm's Form 8879 years say", async () => {
    await setRules(1, 4);
    // The database refuses deleting a locked document by its own clock, which a test cannot move
    // (migration 2026-12-07T0200): this story starts five years ago, the account made then.
    const start = yearsAfter(new Date(), -5);
    server.clock.set(start);
    const daveUser = await createUser(server.db, { name: "Dave Signed" });
    await server.db.updateTable("accounts").set({ created_at: start }).where("id", "=", daveUser.id).execute();
    const dave = await loginClient(server.url, daveUser);
    const original = await upload(dave, "8879.pdf");
    const sealed = await upload(dave, "8879-signed.pdf");
    const other = await upload(dave, "notes.txt");
    // Signed and sealed now, as the signatures service leaves it: both files locked for 3 years.
    await server.db
      .insertInto("signature_requests")
      .values({
        account_id: daveUser.id,
        document_id: original.id,
        sealed_document_id: sealed.id,
        title: "2025 Form 8879",
        kind: "form_8879",
        signing_order: "parallel",
        status: "completed",
        completed_at: start,
        created_at: start,
        updated_at: start,
        original_sha256: createHash("sha256").update("8879").digest("hex"),
      })
      .execute();
    await server.db
      .updateTable("documents")
      .set({ retained_until: yearsAfter(start, 3) })
      .where("id", "in", [original.id, sealed.id])
      .execute();

    // A year and a day on: the account is past its year, but the signed pair is locked.
    await disposeAt(yearsAfter(start, 1, 1));
    expect(await documentIds(server, daveUser.id)).toEqual([original.id, sealed.id].sort());
    // The lock is over after 3 years; the firm keeps a Form 8879 four.
    await disposeAt(yearsAfter(start, 3, 1));
    expect(await documentIds(server, daveUser.id)).toEqual([original.id, sealed.id].sort());
    await disposeAt(yearsAfter(start, 4, 1));
    expect(await documentIds(server, daveUser.id)).toEqual([]);
    const receipts = await trail(server, daveUser.id, "retention.dispose");
    expect(receipts.map((r) => r.detail.documents)).toEqual([1, 2]);
    expect(receipts[0]!.detail.files).toEqual([{ id: other.id, filename: "notes.txt", bytes: other.file_size }]);
    // The request went with its document.
    expect(await server.db.selectFrom("signature_requests").select("id").where("account_id", "=", daveUser.id).execute()).toEqual([]);
    await setRules(7);
  });
});

describe("what is due within 30 days", () => {
  it("lists each account's documents, bytes, rule and date, held ones marked, and those are what the disposal takes", async () => {
    await setRules(1);
    const erinUser = await createUser(server.db, { name: "Erin Due" });
    const erin = await loginClient(server.url, erinUser);
    const a = await upload(erin, "a.pdf", 1500);
    const b = await upload(erin, "b.pdf", 2500);
    const trashed = await upload(erin, "t.pdf", 700);
    expect((await erin.delete(`/api/documents/${trashed.id}`)).status).toBe(200);
    const heldUser = await createUser(server.db, { name: "Held Due" });
    await upload(await loginClient(server.url, heldUser), "h.pdf", 900);
    expect((await owner.post(`/api/admin/accounts/${heldUser.id}/legal-hold`, { reason: "Audit" })).status).toBe(200);
    const start = server.clock.now();

    // Today: only the trashed document is due within 30 days.
    const today = await owner.get("/api/admin/retention/due");
    expect(today.status, today.text).toBe(200);
    const erinToday = today.body.items.filter((i: { account_id: string }) => i.account_id === erinUser.id);
    expect(erinToday).toEqual([expect.objectContaining({ rule: "trash", documents: 1, bytes: 700, held: false })]);
    const trashedAt = (await server.db.selectFrom("documents").select("deleted_at").where("id", "=", trashed.id).executeTakeFirstOrThrow())
      .deleted_at!;
    expect(new Date(erinToday[0].due_at).getTime()).toBe(trashedAt.getTime() + 30 * DAY_MS);
    expect(today.body.holds).toEqual(
      expect.arrayContaining([expect.objectContaining({ account_id: heldUser.id, account_name: heldUser.username, reason: "Audit" })]),
    );

    // Twenty days before the year is out (a fresh sign-in of the firm's, on the server's clock).
    server.clock.set(yearsAfter(start, 1, -20));
    try {
      const firm = await loginClient(server.url, ownerUser, "admin");
      const due = await firm.get("/api/admin/retention/due");
      expect(due.status, due.text).toBe(200);
      const erinDue = due.body.items.filter((i: { account_id: string; rule: string }) => i.account_id === erinUser.id && i.rule === "inactivity");
      expect(erinDue).toEqual([
        expect.objectContaining({ account_name: erinUser.username, rule: "inactivity", documents: 2, bytes: a.file_size + b.file_size, held: false }),
      ]);
      const lastActivity = new Date(erinDue[0].last_activity_at);
      expect(new Date(erinDue[0].due_at).getTime()).toBe(yearsAfter(lastActivity, 1).getTime());
      expect(due.body.items).toEqual(expect.arrayContaining([expect.objectContaining({ account_id: heldUser.id, held: true, documents: 1 })]));
    } finally {
      server.clock.set(new Date());
    }

    await disposeAt(yearsAfter(start, 1, 1));
    expect(await documentIds(server, erinUser.id)).toEqual([]);
    expect(await documentIds(server, heldUser.id)).toHaveLength(1);
    await setRules(7);
  });
});

describe("in an S3 bucket", () => {
  let s3: TestS3;
  let bucketServer: TestServer;

  beforeAll(async () => {
    s3 = await startTestS3();
    bucketServer = await startTestServer({ env: s3.env });
  });
  afterAll(async () => {
    await bucketServer?.close();
    await s3?.close();
  });

  it("removes the disposed objects from the bucket", async () => {
    const user = await createUser(bucketServer.db);
    const client = await loginClient(bucketServer.url, user);
    const start = bucketServer.clock.now();
    const doc = await upload(client, "bucket.pdf");
    const key = await keyOf(bucketServer, doc.id);
    const inBucket = () =>
      s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key })).then(
        () => true,
        (err: { name?: string }) => {
          if (err.name === "NotFound") return false;
          throw err;
        },
      );
    expect(await inBucket()).toBe(true);

    bucketServer.clock.set(yearsAfter(start, 7, 1));
    try {
      expect(await disposeDue(bucketServer.deps)).toMatchObject({ documents: 1, bytes: doc.file_size });
    } finally {
      bucketServer.clock.set(new Date());
    }
    expect(await inBucket()).toBe(false);
    expect(await documentIds(bucketServer, user.id)).toEqual([]);
    expect(await bucketServer.db.selectFrom("stored_object_keys").select("storage_key").where("storage_key", "=", key).execute()).toEqual([]);
  });
});
