// Issue 28, item 8: what names give away or disguise. A client's activity named the admin's login
// username; folder names kept bidirectional overrides (U+202E shows "Invoice\u202Efdp.exe" as
// "Invoiceexe.pdf"); ZIP entries kept Windows device names (CON, NUL...), which Windows cannot extract.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let adminUser: UserFixture;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  adminUser = await createUser(server.db, { is_admin: true, username: `ops_root_${randomBytes(3).toString("hex")}`, name: "Dana Whitfield" });
  admin = await loginClient(server.url, adminUser, "admin");
});
afterAll(() => server.close());

async function client(): Promise<{ user: UserFixture; api: ApiClient }> {
  const user = await createUser(server.db);
  return { user, api: await loginClient(server.url, user) };
}

async function upload(api: ApiClient, name: string, folderId?: string): Promise<{ id: string; original_filename: string }> {
  const form = new FormData();
  form.append("file", new Blob([randomBytes(64)]), name);
  if (folderId) form.append("folder_id", folderId);
  const res = await api.request("POST", "/api/documents/upload", { body: form });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

type Activity = { items: Array<{ action: string; actor_role: string; actor_label: string }> };

describe("who the client's activity names", () => {
  it("says 'Your firm' for the staff, never a login name; the staff member's name only if the firm chooses", async () => {
    const { user, api } = await client();
    const doc = await upload(api, "w2.pdf");
    expect((await admin.get(`/api/admin/documents/${doc.id}/download`)).status).toBe(200);

    const seen = async () => (await api.get<Activity>("/api/activity")).body.items.find((i) => i.action === "document.download")!;
    expect(await seen()).toMatchObject({ actor_role: "admin", actor_label: "Your firm" });
    expect(JSON.stringify((await api.get("/api/activity")).body)).not.toContain(adminUser.username);

    expect((await admin.get("/api/admin/activity-settings")).body).toEqual({ staff_names_for_clients: false });
    const on = await admin.put("/api/admin/activity-settings", { staff_names_for_clients: true });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toEqual({ staff_names_for_clients: true });
    try {
      expect(await seen()).toMatchObject({ actor_role: "admin", actor_label: "Dana Whitfield" });
      expect(JSON.stringify((await api.get("/api/activity")).body)).not.toContain(adminUser.username);
    } finally {
      await admin.put("/api/admin/activity-settings", { staff_names_for_clients: false });
    }
    // The firm's own trail names the staff member by name (issue 48); its CSV keeps which login did it.
    const firm = await admin.get<Activity>(`/api/admin/activity?client_id=${user.id}&action=document.download`);
    expect(firm.body.items[0]!.actor_label).toBe("Dana Whitfield");
    expect((await admin.get(`/api/admin/activity.csv?client_id=${user.id}&action=document.download`)).text).toContain(adminUser.username!);
    // Only the firm sets it, with a boolean.
    expect((await api.put("/api/admin/activity-settings", { staff_names_for_clients: true })).status).toBe(403);
    expect((await admin.put("/api/admin/activity-settings", { staff_names_for_clients: "yes" })).status).toBe(422);
  });
});

describe("bidirectional and invisible characters in names", () => {
  it("are removed from folder names, on creation and rename; a name of nothing else is refused", async () => {
    const { api } = await client();
    const created = await api.post("/api/folders", { name: "Invoice\u202Efdp.exe" });
    expect(created.status, created.text).toBe(201);
    expect(created.body.name).toBe("Invoicefdp.exe");
    const renamed = await api.patch(`/api/folders/${created.body.id}`, { name: "\u2067Taxes\u2069 \u200F2024\u200E" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe("Taxes 2024");
    const empty = await api.post("/api/folders", { name: "\u202E\u200B\u2066" });
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toBe("Folder name is required");
  });

  it("are removed from document renames and uploads' filenames", async () => {
    const { api } = await client();
    const doc = await upload(api, "report\u202Efdp.exe");
    expect(doc.original_filename).toBe("reportfdp.exe");
    const renamed = await api.patch(`/api/documents/${doc.id}`, { name: "scan\u202Egpj.exe" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.original_filename).toBe("scangpj.exe");
  });

  it("are removed from the names and titles the firm and clients give meetings and requests", async () => {
    const type = await admin.post("/api/admin/meeting-types", { name: "Review\u202Eweiver", duration_minutes: 30, location: "phone" });
    expect(type.status, type.text).toBe(201);
    expect(type.body.name).toBe("Reviewweiver");
    const { user } = await client();
    const request = await admin.post("/api/admin/requests", { user_id: user.id, title: "W-2\u202E2-W" });
    expect(request.status, request.text).toBe(201);
    expect(request.body.title).toBe("W-22-W");
    // A visitor's name reaches the firm's consultations list.
    const visitor = await fetch(`${server.url}/api/consultation/request`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify({ name: "Ann\u202Eeb\u200B", email: "ann@example.com", phone: "555-123-4567", preferredDate: "2031-05-01" }),
    });
    expect(visitor.status, await visitor.clone().text()).toBe(200);
    const listed = await admin.get("/api/admin/consultations?q=ann%40example.com");
    expect(listed.body.map((c: { name: string }) => c.name)).toContain("Anneb");
  });
});

describe("invisible characters in the names people give themselves and each other", () => {
  it("are removed from a registrant's name, a renamed profile and an invitation's name", async () => {
    const tag = randomBytes(3).toString("hex");
    const register = await fetch(`${server.url}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify({ username: `ann_${tag}`, email: `ann_${tag}@example.com`, name: "Ann\u202Eeb\u200B", password: "Correct-Horse-9" }),
    });
    expect(register.status, await register.clone().text()).toBe(200);
    const registered = await server.db.selectFrom("users").select("name").where("username", "=", `ann_${tag}`).executeTakeFirstOrThrow();
    expect(registered.name).toBe("Anneb");

    const { user, api } = await client();
    const renamed = await api.request("PATCH", "/api/auth/me", { json: { name: "Bo\u202Eb" } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe("Bob");
    expect((await server.db.selectFrom("users").select("name").where("id", "=", user.id).executeTakeFirstOrThrow()).name).toBe("Bob");

    const invited = await admin.post("/api/admin/invitations", { name: "Cy\u2066rus\u2069", email: `cy_${tag}@example.com` });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body.name).toBe("Cyrus");
    // A name of nothing but such characters is no name.
    expect((await admin.post("/api/admin/invitations", { name: "\u202E\u200B", email: `dee_${tag}@example.com` })).status).toBe(422);
  });
});

/** Every entry name of a ZIP. */
function zipNames(buffer: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error("no zip"));
      const names: string[] = [];
      zip.on("error", reject);
      zip.on("end", () => resolve(names));
      zip.on("entry", (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.readEntry();
    });
  });
}

describe("Windows device names in ZIPs", () => {
  it("renames CON, NUL, PRN, AUX, COM1-9 and LPT1-9, with or without an extension, so Windows extracts them", async () => {
    const { api } = await client();
    const top = await api.post("/api/folders", { name: `Devices ${randomBytes(3).toString("hex")}` });
    const con = await api.post("/api/folders", { name: "CON", parent_folder_id: top.body.id });
    for (const name of ["nul.txt", "PRN", "Aux.tar.gz", "com1.pdf", "LPT9", "console.txt", "COM10.txt", "NULL.txt"]) {
      await upload(api, name, top.body.id);
    }
    await upload(api, "clock$.txt", con.body.id);
    await upload(api, "lpt1 .txt", con.body.id);
    const res = await fetch(`${server.url}/api/folders/${top.body.id}/download`, {
      headers: { Cookie: [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    expect(res.status).toBe(200);
    const names = (await zipNames(Buffer.from(await res.arrayBuffer()))).sort();
    expect(names).toEqual(
      [
        "nul_.txt",
        "PRN_",
        "Aux_.tar.gz",
        "com1_.pdf",
        "LPT9_",
        "console.txt",
        "COM10.txt",
        "NULL.txt",
        "CON_/",
        "CON_/clock$.txt",
        "CON_/lpt1_ .txt",
      ].sort(),
    );
  });
});
