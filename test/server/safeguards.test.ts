// Issue 37, the safeguards a firm shows its examiner: the owner ends every session at once (streams
// too), the access log of a window as CSV, and an account's complete export as one streamed ZIP
// (read back with yauzl, compared byte for byte by SHA-256).
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { PDFDocument } from "@cantoo/pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { createStaffMember, createUser, loginClient, nextSecondFactorCode, type UserFixture } from "../helpers/factories.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
/** The firm has one owner. */
let ownerUser: UserFixture;

beforeAll(async () => {
  // The key organizers' sensitive answers are sealed with.
  server = await startTestServer({ env: { TOTP_ENCRYPTION_KEY: randomBytes(32).toString("base64") } });
  ownerUser = await createStaffMember(server.db, "owner");
});
afterAll(() => server.close());

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");
const cookieOf = (client: ApiClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

async function upload(client: ApiClient, name: string, folderId?: string) {
  const bytes = randomBytes(2000 + Math.floor(Math.random() * 4000));
  const form = new FormData();
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  if (folderId) form.append("folder_id", folderId);
  const res = await client.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
  return { id: (res.body as { id: string }).id, sha: sha256(bytes) };
}

async function createFolder(client: ApiClient, name: string, parentId: string | null = null): Promise<string> {
  const res = await client.post("/api/folders", { name, parent_folder_id: parentId });
  expect(res.status, res.text).toBe(201);
  return (res.body as { id: string }).id;
}

/** Every entry of a ZIP: "dir" for a directory, else its bytes. */
function readZip(buffer: Buffer): Promise<Map<string, Buffer | "dir">> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, strictFileNames: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error("no zip"));
      const entries = new Map<string, Buffer | "dir">();
      zip.on("error", reject);
      zip.on("end", () => resolve(entries));
      zip.on("entry", (entry: yauzl.Entry) => {
        if (entries.has(entry.fileName)) return reject(new Error(`duplicate entry ${entry.fileName}`));
        if (entry.fileName.endsWith("/")) {
          entries.set(entry.fileName, "dir");
          zip.readEntry();
          return;
        }
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

async function download(client: ApiClient, path: string) {
  const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookieOf(client) } });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

function trail(action: string) {
  return server.db.selectFrom("activity_events").select(["actor_id", "account_id", "detail"]).where("action", "=", action).orderBy("id").execute();
}

/** Opens a message event stream as EventSource would; `ended` settles when the server closes it. */
async function openStream(client: ApiClient, path: string) {
  const abort = new AbortController();
  const res = await fetch(new URL(path, server.url), { headers: { Accept: "text/event-stream", Cookie: cookieOf(client) }, signal: abort.signal });
  expect(res.status).toBe(200);
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const ended = (async () => {
    try {
      for await (const chunk of res.body!) if (/event: ready/.test(Buffer.from(chunk).toString())) ready();
    } catch {
      // Closed by the test.
    }
    ready();
  })();
  await isReady;
  return { ended, close: () => abort.abort() };
}

const endsWithin = (ended: Promise<void>, ms: number) =>
  Promise.race([ended.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe("POST /api/admin/security/end-all-sessions", () => {
  it("ends every session but the owner's calling one, ends open streams, refuses a sign-in under way, and is in the trail", async () => {
    const owner = await loginClient(server.url, ownerUser, "admin");
    const ownerElsewhere = await loginClient(server.url, ownerUser, "admin");
    const clientUser = await createUser(server.db);
    const client = await loginClient(server.url, clientUser);
    const clientPhone = await loginClient(server.url, clientUser);
    const staff = await loginClient(server.url, await createStaffMember(server.db, "staff", ["messages"]), "admin");
    const admin = await loginClient(server.url, await createStaffMember(server.db, "admin"), "admin");
    // A sign-in past its password, waiting for its second factor, opens no session afterwards.
    const pendingUser = await createStaffMember(server.db, "staff");
    const pending = new ApiClient(server.url);
    const step = await pending.post("/api/admin/login", { username: pendingUser.username, password: pendingUser.password });
    expect(step.body.two_factor_required).toBe(true);

    const clientStream = await openStream(client, "/api/messages/events");
    const staffStream = await openStream(staff, "/api/admin/messages/events");
    try {
      // Nothing without saying so, and nobody but the owner.
      expect(await owner.post("/api/admin/security/end-all-sessions", {})).toMatchObject({ status: 422 });
      for (const refused of [staff, admin]) {
        expect(await refused.post("/api/admin/security/end-all-sessions", { confirm: true })).toMatchObject({
          status: 403,
          body: { detail: "Only the firm's owner may do this" },
        });
      }
      expect((await client.post("/api/admin/security/end-all-sessions", { confirm: true })).status).toBe(403);
      expect((await client.get("/api/auth/me")).status).toBe(200);

      const res = await owner.post("/api/admin/security/end-all-sessions", { confirm: true });
      expect(res.status, res.text).toBe(200);
      expect(res.body.sessions_ended).toBeGreaterThanOrEqual(5);

      for (const ended of [client, clientPhone]) expect((await ended.get("/api/auth/me")).status).toBe(401);
      for (const ended of [ownerElsewhere, staff, admin]) expect((await ended.get("/api/admin/me")).status).toBe(401);
      expect((await owner.get("/api/admin/me")).status).toBe(200);
      expect(await endsWithin(clientStream.ended, 5000)).toBe(true);
      expect(await endsWithin(staffStream.ended, 5000)).toBe(true);
      // The second step of the sign-in begun before is refused: its session epoch is gone.
      const finish = await pending.post("/api/auth/login/2fa", {
        challenge: step.body.challenge,
        code: nextSecondFactorCode(pendingUser, server.clock.now()),
      });
      expect(finish.status).not.toBe(200);
      expect((await pending.get("/api/admin/me")).status).toBe(401);
      // A new sign-in works as ever.
      expect((await (await loginClient(server.url, clientUser)).get("/api/auth/me")).status).toBe(200);

      const entries = await trail("security.end_all_sessions");
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actor_id: ownerUser.id, account_id: null, detail: { sessions: res.body.sessions_ended } });
    } finally {
      clientStream.close();
      staffStream.close();
    }
  });
});

describe("GET /api/admin/security/access-log.csv", () => {
  it("lists the sign-ins and downloads of the window and nothing outside it, to those with the activity right", async () => {
    const user = await createUser(server.db);
    const client = await loginClient(server.url, user);
    const before = await upload(client, `before-${randomUUID().slice(0, 6)}.pdf`);
    const inside = await upload(client, `inside-${randomUUID().slice(0, 6)}.pdf`);
    const after = await upload(client, `after-${randomUUID().slice(0, 6)}.pdf`);
    expect((await download(client, `/api/documents/${before.id}/download`)).res.status).toBe(200);
    server.clock.advance(1000);
    const from = server.clock.now();
    const owner = await loginClient(server.url, ownerUser, "admin");
    expect((await download(client, `/api/documents/${inside.id}/download`)).res.status).toBe(200);
    expect((await download(owner, `/api/admin/documents/${inside.id}/download`)).res.status).toBe(200);
    server.clock.advance(1000);
    const to = server.clock.now();
    server.clock.advance(1000);
    expect((await download(client, `/api/documents/${after.id}/download`)).res.status).toBe(200);

    const query = `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
    const res = await owner.get(`/api/admin/security/access-log.csv?${query}`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = res.text.trim().split("\r\n");
    expect(lines[0]).toBe(
      "occurred_at,action,person,person_role,person_id,account,account_id,target_type,target_id,filename,folder,ip,user_agent,detail",
    );
    const download_ = lines.filter((line) => line.includes(inside.id));
    expect(download_.some((line) => line.includes("document.download") && line.includes(user.username!))).toBe(true);
    expect(download_.some((line) => line.includes("document.download") && line.includes(`,admin,${ownerUser.id},`))).toBe(true);
    expect(lines.some((line) => line.includes("auth.sign_in,"))).toBe(true);
    expect(res.text).not.toContain(before.id);
    expect(res.text).not.toContain(after.id);
    // Uploads are not accesses.
    expect(res.text).not.toContain("document.upload");
    // Reading the log is itself in the trail.
    expect((await trail("security.access_log")).at(-1)).toMatchObject({ detail: { from: from.toISOString(), to: to.toISOString() } });

    const withActivity = await loginClient(server.url, await createStaffMember(server.db, "staff", ["activity", "all_clients"]), "admin");
    expect((await withActivity.get(`/api/admin/security/access-log.csv?${query}`)).text).toContain(inside.id);
    const without = await loginClient(server.url, await createStaffMember(server.db, "staff", ["documents", "all_clients"]), "admin");
    expect(await without.get(`/api/admin/security/access-log.csv?${query}`)).toMatchObject({
      status: 403,
      body: { detail: "You need the activity right for this" },
    });
    expect((await client.get(`/api/admin/security/access-log.csv?${query}`)).status).toBe(403);
    // A staff member who reaches only assigned accounts does not see this client's.
    const assignedOnly = await loginClient(server.url, await createStaffMember(server.db, "staff", ["activity"]), "admin");
    expect((await assignedOnly.get(`/api/admin/security/access-log.csv?${query}`)).text).not.toContain(inside.id);
    // The window is required and must be one.
    expect(await owner.get("/api/admin/security/access-log.csv")).toMatchObject({ status: 422, body: { detail: expect.stringContaining("from") } });
    expect(
      await owner.get(`/api/admin/security/access-log.csv?from=${encodeURIComponent(to.toISOString())}&to=${encodeURIComponent(from.toISOString())}`),
    ).toMatchObject({
      status: 422,
      body: { detail: expect.stringContaining("to must be after from") },
    });
  });
});

describe("an account's export", () => {
  let user: UserFixture;
  let client: ApiClient;
  let documents: Record<string, string>;
  let firmText: string;
  /** Signed by the client; the other is signed by another person of the account only. */
  let ownRequest: string;
  let spouseRequest: string;

  beforeAll(async () => {
    user = await createUser(server.db);
    client = await loginClient(server.url, user);
    const taxes = await createFolder(client, "Taxes 2025");
    const w2s = await createFolder(client, "W-2s", taxes);
    await createFolder(client, "Empty", taxes);
    const root = await upload(client, "notes.txt");
    const w2 = await upload(client, "W-2.pdf", w2s);
    const w2Again = await upload(client, "W-2.pdf", w2s);
    const summary = await upload(client, "summary.pdf", taxes);
    const trashed = await upload(client, "trashed.pdf", taxes);
    expect((await client.delete(`/api/documents/${trashed.id}`)).status).toBe(200);
    documents = {
      "documents/notes.txt": root.sha,
      "documents/Taxes 2025/W-2s/W-2.pdf": w2.sha,
      "documents/Taxes 2025/W-2s/W-2 (2).pdf": w2Again.sha,
      "documents/Taxes 2025/summary.pdf": summary.sha,
    };
    const sent = await client.post("/api/messages", { text: 'Here are my W-2s, = and "quotes"', document_ids: [w2.id] });
    expect(sent.status, sent.text).toBe(201);
    const admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
    firmText = `Thanks, your 1040 is ready ${randomUUID().slice(0, 6)}`;
    expect((await admin.post(`/api/admin/messages/${user.id}`, { text: firmText, document_ids: [] })).status).toBe(201);
    const request = await server.db
      .insertInto("document_requests")
      .values({ account_id: user.id, title: "Brokerage statements", folder_id: taxes })
      .returning("id")
      .executeTakeFirstOrThrow();
    await server.db.insertInto("document_request_items").values({ request_id: request.id, position: 0, title: "1099-B" }).execute();
    await server.db
      .insertInto("appointments")
      .values({
        account_id: user.id,
        title: "Year-end review",
        description: "",
        appointment_date: new Date("2026-12-01T15:00:00Z"),
        status: "scheduled",
      })
      .execute();

    // An organizer with a sensitive answer.
    const templateRes = await admin.post("/api/admin/organizer-templates", {
      name: "Export season",
      template: {
        sections: [
          {
            title: "Refund",
            questions: [
              { id: "bank", type: "text", label: "Bank name" },
              { id: "account_number", type: "text", label: "Account number", sensitive: true },
              { id: "moved", type: "yes_no", label: "Did you move?" },
            ],
          },
        ],
      },
    });
    expect(templateRes.status, templateRes.text).toBe(201);
    const organizer = await admin.post("/api/admin/organizers", { account_id: user.id, template_id: templateRes.body.id, title: "2026 organizer" });
    expect(organizer.status, organizer.text).toBe(201);
    const answered = await client.put(`/api/organizers/${organizer.body.id}/answers`, {
      answers: { bank: "First Harbor, = Savings", account_number: "000123456789" },
    });
    expect(answered.status, answered.text).toBe(200);

    // Two signature requests: one the client signs (and opened), one only their spouse signs.
    const spouse = await createUser(server.db, { name: "Spouse Export" });
    await server.db.insertInto("account_contacts").values({ account_id: user.id, user_id: spouse.id, role: "member" }).execute();
    const pdf = await PDFDocument.create();
    pdf.addPage([612, 792]);
    const pdfBytes = await pdf.save();
    const form = new FormData();
    form.append("file", new Blob([pdfBytes as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), "letter.pdf");
    const letter = await client.request("POST", "/api/documents/upload", { body: form });
    expect(letter.status, letter.text).toBe(201);
    documents["documents/letter.pdf"] = sha256(pdfBytes);
    const field = { signer: 0, type: "signature", page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.05 };
    const createSigning = async (title: string, signer: string) => {
      const res = await admin.post("/api/admin/signature-requests", {
        account_id: user.id,
        document_id: letter.body.id,
        title,
        kind: "engagement_letter",
        signers: [{ user_id: signer }],
        fields: [field],
      });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    ownRequest = await createSigning("Engagement letter", user.id);
    spouseRequest = await createSigning("Spouse's letter", spouse.id);
    expect((await client.get(`/api/signature-requests/${ownRequest}`)).status).toBe(200);
  });

  async function expectComplete(body: Buffer, view: "client" | "firm") {
    const entries = await readZip(body);
    const files = Object.fromEntries(
      [...entries].filter(([name]) => name.startsWith("documents/") && !name.endsWith("/")).map(([name, bytes]) => [name, sha256(bytes as Buffer)]),
    );
    expect(files).toEqual(documents);
    expect(entries.get("documents/Taxes 2025/Empty/")).toBe("dir");
    const names = [
      "messages.json",
      "messages.csv",
      "requests.json",
      "requests.csv",
      "appointments.json",
      "appointments.csv",
      "organizers.json",
      "organizers.csv",
      "signatures.json",
      "signatures.csv",
      "signature-events.csv",
    ];
    const readme = entries.get("README.txt")!.toString();
    for (const name of names) {
      expect(entries.has(name), name).toBe(true);
      expect(readme, name).toContain(`\n${name} `);
    }
    expect(readme).toContain("documents/");
    const messages = JSON.parse(entries.get("messages.json")!.toString()) as Array<{
      from: string;
      text: string;
      attachments: { filename: string }[];
    }>;
    expect(messages.map((m) => [m.from, m.text])).toEqual([
      ["client", 'Here are my W-2s, = and "quotes"'],
      ["firm", firmText],
    ]);
    expect(messages[0]!.attachments.map((a) => a.filename)).toEqual(["W-2.pdf"]);
    const csv = entries.get("messages.csv")!.toString();
    expect(csv).toContain('"Here are my W-2s, = and ""quotes"""');
    expect(csv).toContain(firmText);
    const requests = JSON.parse(entries.get("requests.json")!.toString()) as Array<{ title: string; folder: string; items: { title: string }[] }>;
    expect(requests).toMatchObject([{ title: "Brokerage statements", folder: "Taxes 2025", items: [{ title: "1099-B" }] }]);
    const appointments = JSON.parse(entries.get("appointments.json")!.toString()) as Array<{ title: string; starts_at: string }>;
    expect(appointments).toMatchObject([{ title: "Year-end review", starts_at: "2026-12-01T15:00:00.000Z" }]);

    // Organizers: every question with its answer; a sensitive one in full for the firm, masked for
    // the client as on their own page (in the README too), in the JSON and in the CSV alike.
    const organizers = JSON.parse(entries.get("organizers.json")!.toString()) as Array<{
      title: string;
      status: string;
      questions: Array<{ id: string; answer: unknown; sensitive: boolean }>;
    }>;
    expect(organizers).toMatchObject([
      {
        title: "2026 organizer",
        status: "sent",
        questions: [
          { id: "bank", answer: "First Harbor, = Savings", sensitive: false },
          { id: "account_number", answer: view === "firm" ? "000123456789" : "•••• 6789", sensitive: true },
          { id: "moved", answer: null },
        ],
      },
    ]);
    const organizerCsv = entries.get("organizers.csv")!.toString();
    expect(organizerCsv.split("\r\n")[0]).toBe("organizer_id,organizer,status,submitted_at,question_id,question,type,sensitive,answer,files");
    expect(organizerCsv).toContain(`,bank,Bank name,text,no,"First Harbor, = Savings",`);
    if (view === "firm") expect(organizerCsv).toContain(",000123456789,");
    else {
      expect(organizerCsv).toContain("•••• 6789");
      expect(body.includes(Buffer.from("000123456789"))).toBe(false);
      expect(readme).toMatch(/Sensitive answers\s+\(bank and identity numbers\) are masked/);
    }

    // Signatures: each request with its signers, status and audit events; the client's own only.
    const signatures = JSON.parse(entries.get("signatures.json")!.toString()) as Array<{
      id: string;
      status: string;
      signers: Array<{ name: string; status: string; viewed_at: string | null }>;
      events: Array<{ action: string }>;
    }>;
    const own = {
      id: ownRequest,
      title: "Engagement letter",
      status: "sent",
      document: "letter.pdf",
      signers: [{ index: 0, name: user.name, status: "pending", viewed_at: expect.any(String) as unknown }],
      events: [{ action: "create" }, { action: "view", signer: 0 }],
    };
    const spouses = { id: spouseRequest, status: "sent", signers: [{ name: "Spouse Export", viewed_at: null }], events: [{ action: "create" }] };
    expect(signatures).toMatchObject(view === "firm" ? [own, spouses] : [own]);
    const signatureCsv = entries.get("signatures.csv")!.toString();
    expect(signatureCsv).toContain(`${ownRequest},Engagement letter,engagement_letter,sent,`);
    expect(signatureCsv.includes(spouseRequest)).toBe(view === "firm");
    const eventsCsv = entries.get("signature-events.csv")!.toString().split("\r\n");
    expect(eventsCsv[0]).toBe("request_id,title,at,action,signer,actor,detail");
    expect(eventsCsv.filter((line) => line.startsWith(`${ownRequest},`)).map((line) => line.split(",")[3])).toEqual(["create", "view"]);
  }

  it("GET /api/account/export: the client's current account, every document byte for byte in its folder, and the messages", async () => {
    const before = (await trail("account.export")).length;
    const { res, body } = await download(client, "/api/account/export");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toContain(`${user.username} export`);
    expect(res.headers.get("content-length")).toBeNull();
    await expectComplete(body, "client");
    const entries = await trail("account.export");
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)).toMatchObject({
      actor_id: user.id,
      account_id: user.id,
      detail: { documents: 5, messages: 2, requests: 1, appointments: 1, organizers: 1, signatures: 1 },
    });
  });

  it("GET /api/admin/accounts/:id/export: the same for the firm, within its reach; another's or a missing one is 404", async () => {
    const firm = await loginClient(server.url, ownerUser, "admin");
    const before = (await trail("account.export")).length;
    const { res, body } = await download(firm, `/api/admin/accounts/${user.id}/export`);
    expect(res.status).toBe(200);
    await expectComplete(body, "firm");
    expect((await trail("account.export")).at(-1)).toMatchObject({
      actor_id: ownerUser.id,
      account_id: user.id,
      detail: { organizers: 1, signatures: 2 },
    });

    expect((await firm.get(`/api/admin/accounts/${randomUUID()}/export`)).status).toBe(404);
    // A staff member with every right the export needs but not assigned to this one: as missing.
    const everyPart = ["manage_clients", "documents", "messages", "requests", "appointments"] as const;
    const unassigned = await loginClient(server.url, await createStaffMember(server.db, "staff", [...everyPart]), "admin");
    expect(await unassigned.get(`/api/admin/accounts/${user.id}/export`)).toMatchObject({ status: 404, body: { detail: "Account not found" } });
    const assigned = await createStaffMember(server.db, "staff", [...everyPart]);
    expect((await firm.request("PUT", `/api/admin/accounts/${user.id}/assignees`, { json: { user_ids: [assigned.id] } })).status).toBe(200);
    const withEveryPart = await loginClient(server.url, assigned, "admin");
    expect((await download(withEveryPart, `/api/admin/accounts/${user.id}/export`)).res.status).toBe(200);
    // The export holds every part of the record: one right short of them is refused, naming it
    // (managing clients alone would otherwise hand out documents, messages and organizer answers).
    for (const lacking of everyPart) {
      const rights = [...everyPart.filter((r) => r !== lacking), "all_clients" as const];
      const short = await loginClient(server.url, await createStaffMember(server.db, "staff", rights), "admin");
      expect(await short.get(`/api/admin/accounts/${user.id}/export`)).toMatchObject({
        status: 403,
        body: { detail: `You need the ${lacking} right for this` },
      });
    }
    // A client cannot name an account: theirs is the one they export, and another's is not theirs.
    const other = await loginClient(server.url, await createUser(server.db));
    expect((await other.get(`/api/admin/accounts/${user.id}/export`)).status).toBe(403);
    const theirs = await readZip((await download(other, "/api/account/export")).body);
    expect([...theirs.keys()].filter((name) => name.startsWith("documents/") && name !== "documents/")).toEqual([]);
    expect(theirs.get("messages.json")!.toString()).not.toContain(firmText);
    expect((await trail("account.export")).length).toBe(before + 3);
  });
});
