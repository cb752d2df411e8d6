// Scorecard item 1: every tRPC procedure (read from the router) and every REST path (read from
// Express) called as anonymous, client A, client B and admin, against A's objects, B's objects and
// missing ids. No cross-tenant read or write; a foreign id answers exactly like a missing one.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { appRouter } from "../../server/domains/_app.ts";
import { createStaffMember, createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import { ApiClient, type ApiResponse } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { MAX_BOOKING_CHANGES_PER_CLIENT_PER_HOUR } from "../../server/auth/rate-limit.ts";
import { MAX_STREAMS_PER_SESSION } from "../../server/domains/messages/events.ts";
import { ANY_STAFF, PROCEDURE_ACCESS, REST_ACCESS, rightOf, seedObjects, servedRestRoutes, trpc } from "./helpers.ts";

type Objects = Awaited<ReturnType<typeof seedObjects>>;

let server: TestServer;
let anon: ApiClient;
let clientA: ApiClient;
let clientB: ApiClient;
let admin: ApiClient;
/** An admin user signed in through the client portal: a client session, so no admin data. */
let adminAsClient: ApiClient;
let userA: UserFixture;
let userB: UserFixture;
let objectsA: Objects;
let objectsB: Objects;
let callsMade = 0;

const procedures = Object.entries(
  (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: "query" | "mutation" } }> } })._def.procedures,
).map(([path, procedure]) => ({ path, type: procedure._def.type }));

beforeAll(async () => {
  server = await startTestServer();
  anon = new ApiClient(server.url);
  userA = await createUser(server.db);
  userB = await createUser(server.db);
  const adminUser = await createUser(server.db, { is_admin: true });
  clientA = await loginClient(server.url, userA);
  clientB = await loginClient(server.url, userB);
  admin = await loginClient(server.url, adminUser, "admin");
  adminAsClient = await loginClient(server.url, adminUser, "client");
  objectsA = await seedObjects(server.db, server.deps.storage, userA.id);
  objectsB = await seedObjects(server.db, server.deps.storage, userB.id);
});
afterAll(async () => {
  console.info(`authorization matrix: ${callsMade} calls`);
  await server.close();
});

/**
 * Signing out the caller's other sessions: called as client A only, since the admin's client
 * session would end the admin session the later checks use.
 */
const ENDS_OTHER_SESSIONS = new Set(["account.revokeOtherSessions", "POST /auth/sessions/revoke-others"]);
const clientsFor = (target: string) => (ENDS_OTHER_SESSIONS.has(target) ? [clientA] : [clientA, adminAsClient]);

async function call(client: ApiClient, path: string, type: "query" | "mutation", input?: unknown) {
  callsMade++;
  return trpc(client, path, type, input);
}

describe("the rules cover the API", () => {
  it("every tRPC procedure has an access rule, and every rule a procedure", () => {
    expect(procedures.map((p) => p.path).sort()).toEqual(Object.keys(PROCEDURE_ACCESS).sort());
  });

  it("every REST path Express serves has an access rule, and every rule a path", () => {
    expect(servedRestRoutes(createApp(server.deps)).sort()).toEqual(Object.keys(REST_ACCESS).sort());
  });
});

describe("tRPC: who may call what", () => {
  // Logout and the sign-in procedures change who the caller is; they are public and run only as anonymous.
  const SIGNS_OUT = new Set(["auth.logout"]);

  it("anonymous gets 401 from every procedure that is not public", async () => {
    for (const { path, type } of procedures) {
      const res = await call(anon, path, type, {});
      if (PROCEDURE_ACCESS[path] === "public") expect([401, 403], path).not.toContain(res.status);
      else expect({ path, status: res.status, code: res.code }).toEqual({ path, status: 401, code: "UNAUTHORIZED" });
    }
  });

  it("clients get 403 from every admin procedure, and reach every client procedure", async () => {
    for (const { path, type } of procedures) {
      if (PROCEDURE_ACCESS[path] === "public" || SIGNS_OUT.has(path)) continue;
      for (const client of clientsFor(path)) {
        const res = await call(client, path, type, {});
        if (PROCEDURE_ACCESS[path] === "admin") {
          expect({ path, status: res.status, message: res.message }).toEqual({ path, status: 403, message: "Admin access required" });
        } else {
          expect([401, 403], path).not.toContain(res.status);
        }
      }
    }
  });

  it("the admin reaches every admin procedure", async () => {
    for (const { path, type } of procedures) {
      if (PROCEDURE_ACCESS[path] !== "admin") continue;
      const res = await call(admin, path, type, {});
      expect([401, 403], path).not.toContain(res.status);
    }
  });
});

describe("tRPC: tenants are isolated", () => {
  const objectCalls = (o: Objects) =>
    [
      ["documents.inFolder", "query", { folder_id: o.folderId }],
      ["folders.create", "mutation", { name: `Nested ${randomUUID().slice(0, 6)}`, parent_folder_id: o.folderId }],
      ["documents.update", "mutation", { id: o.documentId, name: "taken.pdf" }],
      ["documents.update", "mutation", { id: objectsB.documentId, folder_id: o.folderId }],
      ["folders.update", "mutation", { id: o.folderId, name: "Taken" }],
      ["folders.update", "mutation", { id: objectsB.folderId, parent_folder_id: o.folderId }],
      ["documents.restore", "mutation", { id: o.trashedDocumentId }],
      ["documents.deleteForever", "mutation", { id: o.trashedDocumentId }],
      ["documents.delete", "mutation", { id: o.documentId }],
      ["folders.delete", "mutation", { id: o.folderId }],
      ["appointments.slots", "query", { appointment: o.appointmentId }],
      ["appointments.reschedule", "mutation", { id: o.appointmentId, start: "2031-05-01T14:00:00Z" }],
      ["appointments.cancel", "mutation", { id: o.appointmentId }],
      ["requests.submit", "mutation", { id: o.requestId }],
    ] as const;

  it("a foreign id answers exactly like a missing one (404), and changes nothing", async () => {
    const missing: Objects = {
      folderId: randomUUID(),
      documentId: randomUUID(),
      appointmentId: randomUUID(),
      trashedDocumentId: randomUUID(),
      requestId: randomUUID(),
    };
    for (const [[path, type, foreignInput], [, , missingInput]] of objectCalls(objectsA).map((c, i) => [c, objectCalls(missing)[i]!] as const)) {
      const foreign = await call(clientB, path, type, foreignInput);
      const absent = await call(clientB, path, type, missingInput);
      expect({ path, status: absent.status }).toEqual({ path, status: 404 });
      expect({ path, status: foreign.status, message: foreign.message, code: foreign.code }).toEqual({
        path,
        status: absent.status,
        message: absent.message,
        code: absent.code,
      });
    }
    await expectObjectsIntact(objectsA, userA.id);
  });

  it("lists show only the caller's own objects", async () => {
    const seenByB = JSON.stringify([
      (await call(clientB, "folders.list", "query")).data,
      (await call(clientB, "documents.root", "query")).data,
      (await call(clientB, "documents.inFolder", "query", { folder_id: objectsB.folderId })).data,
      (await call(clientB, "documents.search", "query", {})).data,
      (await call(clientB, "documents.trash", "query")).data,
      (await call(clientB, "appointments.list", "query")).data,
      (await call(clientB, "requests.list", "query")).data,
    ]);
    expect(seenByB).toContain(objectsB.trashedDocumentId);
    expect(seenByB).toContain(objectsB.folderId);
    expect(seenByB).toContain(objectsB.documentId);
    expect(seenByB).toContain(objectsB.appointmentId);
    expect(seenByB).toContain(objectsB.requestId);
    for (const id of Object.values(objectsA)) expect(seenByB).not.toContain(id);
    expect(seenByB).not.toContain(userA.email);
  });
});

describe("REST: who may call what", () => {
  const missingId = randomUUID();
  const sampleParams = (path: string) =>
    path.replace(":folder_id", missingId).replace(":id", missingId).replace(":section", "hero").replace(":key", "title");

  async function rest(client: ApiClient, route: string, params: (path: string) => string = sampleParams): Promise<ApiResponse> {
    callsMade++;
    const [method, path] = route.split(" ") as [string, string];
    return client.request(method, `/api${params(path)}`, method === "GET" ? {} : { json: {} });
  }

  it("anonymous gets 401 with a detail from every path that is not public", async () => {
    for (const [route, access] of Object.entries(REST_ACCESS)) {
      const res = await rest(anon, route);
      if (access === "public") expect([401, 403], route).not.toContain(res.status);
      else expect({ route, status: res.status, detail: typeof res.body?.detail }).toEqual({ route, status: 401, detail: "string" });
    }
  });

  it("clients get 403 from every admin path, and reach every client path", async () => {
    for (const [route, access] of Object.entries(REST_ACCESS)) {
      if (access === "public") continue;
      for (const client of clientsFor(route)) {
        const res = await rest(client, route);
        if (access === "admin")
          expect({ route, status: res.status, body: res.body }).toEqual({ route, status: 403, body: { detail: "Admin access required" } });
        else expect([401, 403], route).not.toContain(res.status);
      }
    }
  });

  it("the admin reaches every admin path", async () => {
    for (const [route, access] of Object.entries(REST_ACCESS)) {
      if (access !== "admin" || route.startsWith("DELETE /admin/users")) continue;
      const res = await rest(admin, route);
      expect([401, 403], route).not.toContain(res.status);
    }
  });
});

describe("REST: tenants are isolated", () => {
  function uploadForm(folderId: string, field: "folder_id" | "request_id" = "folder_id") {
    const form = new FormData();
    form.append(field, folderId);
    form.append("file", new Blob(["not yours"], { type: "text/plain" }), "probe.txt");
    return form;
  }

  const objectRequests = (o: Objects) =>
    [
      ["GET", `/api/documents/folder/${o.folderId}`, undefined],
      ["GET", `/api/documents/${o.documentId}/download`, undefined],
      ["GET", `/api/documents/${o.documentId}/preview`, undefined],
      ["GET", `/api/folders/${o.folderId}/download`, undefined],
      ["PATCH", `/api/documents/${o.documentId}`, { json: { name: "taken.pdf" } }],
      ["PATCH", `/api/documents/${objectsB.documentId}`, { json: { folder_id: o.folderId } }],
      ["PATCH", `/api/folders/${o.folderId}`, { json: { name: "Taken" } }],
      ["PATCH", `/api/folders/${objectsB.folderId}`, { json: { parent_folder_id: o.folderId } }],
      ["POST", `/api/trash/${o.trashedDocumentId}/restore`, undefined],
      ["DELETE", `/api/trash/${o.trashedDocumentId}`, undefined],
      ["POST", "/api/folders", { json: { name: "Nested", parent_folder_id: o.folderId } }],
      ["POST", "/api/documents/upload", { body: uploadForm(o.folderId) }],
      ["DELETE", `/api/documents/${o.documentId}`, undefined],
      ["DELETE", `/api/folders/${o.folderId}`, undefined],
      ["GET", `/api/appointments/slots?appointment=${o.appointmentId}`, undefined],
      ["POST", `/api/appointments/${o.appointmentId}/reschedule`, { json: { start: "2031-05-01T14:00:00Z" } }],
      ["POST", `/api/appointments/${o.appointmentId}/cancel`, undefined],
      ["POST", `/api/requests/${o.requestId}/submit`, undefined],
      ["POST", "/api/documents/upload", { body: uploadForm(o.requestId, "request_id") }],
    ] as const;

  it("a foreign id answers exactly like a missing one (404), and changes nothing", async () => {
    const missing: Objects = {
      folderId: randomUUID(),
      documentId: randomUUID(),
      appointmentId: randomUUID(),
      trashedDocumentId: randomUUID(),
      requestId: randomUUID(),
    };
    const foreignRequests = objectRequests(objectsA);
    const missingRequests = objectRequests(missing);
    for (let i = 0; i < foreignRequests.length; i++) {
      const [method, path, opts] = foreignRequests[i]!;
      const [, missingPath, missingOpts] = missingRequests[i]!;
      callsMade += 2;
      const foreign = await clientB.request(method, path, opts ?? {});
      const absent = await clientB.request(method, missingPath, missingOpts ?? {});
      const route = `${method} ${path}`;
      expect({ route, status: absent.status }).toEqual({ route, status: 404 });
      expect({ route, status: foreign.status, body: foreign.body }).toEqual({ route, status: absent.status, body: absent.body });
    }
    await expectObjectsIntact(objectsA, userA.id);
    const strayDocuments = await server.db
      .selectFrom("documents")
      .select("id")
      .where("account_id", "=", userB.id)
      .where("id", "not in", [objectsB.documentId, objectsB.trashedDocumentId])
      .execute();
    expect(strayDocuments).toEqual([]);
  });

  it("lists show only the caller's own objects", async () => {
    callsMade += 7;
    const seenByB = JSON.stringify([
      (await clientB.get("/api/folders")).body,
      (await clientB.get("/api/documents/root")).body,
      (await clientB.get(`/api/documents/folder/${objectsB.folderId}`)).body,
      (await clientB.get("/api/documents/search")).body,
      (await clientB.get("/api/trash")).body,
      (await clientB.get("/api/appointments")).body,
      (await clientB.get("/api/requests")).body,
    ]);
    expect(seenByB).toContain(objectsB.requestId);
    expect(seenByB).toContain(objectsB.folderId);
    expect(seenByB).toContain(objectsB.documentId);
    expect(seenByB).toContain(objectsB.trashedDocumentId);
    for (const id of Object.values(objectsA)) expect(seenByB).not.toContain(id);
  });

  it("a ZIP of everything holds only the caller's own folders", async () => {
    callsMade++;
    const folderName = async (id: string) =>
      (await server.db.selectFrom("folders").select("name").where("id", "=", id).executeTakeFirstOrThrow()).name;
    const zip = await clientB.get("/api/folders/root/download");
    expect(zip.status).toBe(200);
    expect(zip.text).toContain(`${await folderName(objectsB.folderId)}/`);
    expect(zip.text).not.toContain(await folderName(objectsA.folderId));
  });

  it("the admin sees everybody's documents", async () => {
    callsMade++;
    const res = await admin.get("/api/admin/documents?limit=200");
    expect(res.status).toBe(200);
    const ids = (res.body as { id: string }[]).map((d) => d.id);
    expect(ids).toEqual(expect.arrayContaining([objectsA.documentId, objectsB.documentId]));
  });
});

// Issue 28: the new limits count per caller. One client at their limit does not stop another (nor
// the firm), and no client can reach another's streams or counters through them.
describe("the limits belong to their caller", () => {
  /** Opens a message event stream; answers its status and how to close it. */
  async function stream(client: ApiClient, path = "/api/messages/events") {
    callsMade++;
    const abort = new AbortController();
    const res = await fetch(new URL(path, server.url), {
      headers: { Accept: "text/event-stream", Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
      signal: abort.signal,
    });
    const ended =
      res.status === 200
        ? (async () => {
            try {
              for await (const _ of res.body!) void _;
            } catch {
              /* closed */
            }
          })()
        : Promise.resolve();
    return { status: res.status, ended, close: () => abort.abort() };
  }

  it("event streams: A at the cap leaves B and the firm theirs; A cannot end B's streams", async () => {
    const [a, b] = await Promise.all([createUser(server.db), createUser(server.db)]);
    const [apiA, apiB] = await Promise.all([loginClient(server.url, a), loginClient(server.url, b)]);
    const open = [];
    try {
      for (let i = 0; i < MAX_STREAMS_PER_SESSION; i++) open.push(await stream(apiA));
      const refused = await stream(apiA);
      expect(refused.status).toBe(429);
      const ofB = await stream(apiB);
      open.push(ofB);
      expect(ofB.status).toBe(200);
      const ofFirm = await stream(admin, "/api/admin/messages/events");
      open.push(ofFirm);
      expect(ofFirm.status).toBe(200);
      // B's session, named by its id, is not A's to end: 404, and B's stream stays open.
      const sessionsOfB = (await apiB.get("/api/auth/sessions")).body as Array<{ id: string; current: boolean }>;
      callsMade += 2;
      expect((await apiA.delete(`/api/auth/sessions/${sessionsOfB.find((s) => s.current)!.id}`)).status).toBe(404);
      const stillOpen = await Promise.race([ofB.ended.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 500))]);
      expect(stillOpen).toBe(true);
    } finally {
      for (const s of open) s.close();
    }
  });

  it("booking: A's changes used up and bookings at the cap leave B free to book; B's appointments stay B's", async () => {
    const [a, b] = await Promise.all([createUser(server.db), createUser(server.db)]);
    const [apiA, apiB] = await Promise.all([loginClient(server.url, a), loginClient(server.url, b)]);
    const type = await admin.post("/api/admin/meeting-types", { name: "Matrix call", duration_minutes: 30, location: "phone" });
    expect(type.status, type.text).toBe(201);
    const slots = (await apiB.get(`/api/appointments/slots?type=${type.body.id}`)).body as Array<{ start: string }>;
    const booked = await apiB.post("/api/appointments/book", { type: type.body.id, start: slots[0]!.start });
    expect(booked.status, booked.text).toBe(201);
    // A spends every change on B's appointment: each is 404, as for a missing one, and B's is untouched.
    for (let i = 0; i < MAX_BOOKING_CHANGES_PER_CLIENT_PER_HOUR; i++) {
      expect((await apiA.post(`/api/appointments/${booked.body.id}/cancel`)).status).toBe(404);
    }
    const limited = await apiA.post(`/api/appointments/${booked.body.id}/cancel`);
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toMatch(/Please try again in/);
    callsMade += MAX_BOOKING_CHANGES_PER_CLIENT_PER_HOUR + 4;
    expect((await server.db.selectFrom("appointments").select("status").where("id", "=", booked.body.id).executeTakeFirst())?.status).toBe(
      booked.body.status,
    );
    // B is not limited by A, and holds up to the cap.
    for (const slot of slots.slice(1, 3))
      expect((await apiB.post("/api/appointments/book", { type: type.body.id, start: slot.start })).status).toBe(201);
    const capped = await apiB.post("/api/appointments/book", { type: type.body.id, start: slots[3]!.start });
    expect(capped.status).toBe(409);
    expect(capped.body.detail).toMatch(/^You already have 3 upcoming appointments booked online/);
    // Only the firm sets the cap.
    expect((await apiB.put("/api/admin/availability", { weekly: [], max_upcoming_bookings: 50 })).status).toBe(403);
    expect((await admin.delete(`/api/admin/meeting-types/${type.body.id}`)).status).toBe(200);
  });
});

// Issue 33: the firm's roles. A staff member with no rights gets 403 naming the missing right from
// every admin procedure and path that needs one, and reaches the ones every person of the firm may
// use; the owner, like the admin above, reaches everything.
describe("staff roles and rights", () => {
  let noRights: ApiClient;
  let owner: ApiClient;
  const adminProcedures = procedures.filter((p) => PROCEDURE_ACCESS[p.path] === "admin");
  const adminRoutes = Object.entries(REST_ACCESS)
    .filter(([, access]) => access === "admin")
    .map(([route]) => route);
  const missingId = randomUUID();
  const restCall = (client: ApiClient, route: string) => {
    callsMade++;
    const [method, path] = route.split(" ") as [string, string];
    const concrete = path.replace(":user_id", missingId).replace(":id", missingId).replace(":section", "hero").replace(":key", "title");
    return client.request(method, `/api${concrete}`, method === "GET" ? {} : { json: {} });
  };

  beforeAll(async () => {
    noRights = await loginClient(server.url, await createStaffMember(server.db, "staff", []), "admin");
    owner = await loginClient(server.url, await createStaffMember(server.db, "owner"), "admin");
  });

  it("every admin procedure and path either needs a named right or is open to every person of the firm", () => {
    for (const target of [...adminProcedures.map((p) => p.path), ...adminRoutes]) {
      expect({ target, any: rightOf(target) === "any" }).toEqual({ target, any: ANY_STAFF.has(target) });
    }
  });

  it("tRPC: a staff member without rights gets 403 naming the right, and reaches what any person of the firm may", async () => {
    for (const { path, type } of adminProcedures) {
      const res = await call(noRights, path, type, {});
      const right = rightOf(path);
      if (right === "any") expect([401, 403], path).not.toContain(res.status);
      else expect({ path, status: res.status, message: res.message }).toEqual({ path, status: 403, message: `You need the ${right} right for this` });
    }
  });

  it("REST: a staff member without rights gets 403 naming the right, and reaches what any person of the firm may", async () => {
    for (const route of adminRoutes) {
      const res = await restCall(noRights, route);
      const right = rightOf(route);
      if (right === "any") expect([401, 403], route).not.toContain(res.status);
      else
        expect({ route, status: res.status, body: res.body }).toEqual({
          route,
          status: 403,
          body: { detail: `You need the ${right} right for this` },
        });
    }
  });

  it("the owner reaches every admin procedure and path", async () => {
    for (const { path, type } of adminProcedures) expect([401, 403], path).not.toContain((await call(owner, path, type, {})).status);
    for (const route of adminRoutes) {
      if (route.startsWith("DELETE /admin/users")) continue;
      expect([401, 403], route).not.toContain((await restCall(owner, route)).status);
    }
  });
});

async function expectObjectsIntact(objects: Objects, userId: string) {
  const folder = await server.db
    .selectFrom("folders")
    .select(["account_id as user_id", "parent_folder_id", sql<boolean>`name like 'Taxes %'`.as("named_as_seeded")])
    .where("id", "=", objects.folderId)
    .executeTakeFirst();
  const document = await server.db
    .selectFrom("documents")
    .select(["account_id as user_id", "original_filename", "deleted_at"])
    .where("id", "=", objects.documentId)
    .executeTakeFirst();
  const children = await server.db.selectFrom("folders").select("id").where("parent_folder_id", "=", objects.folderId).execute();
  const documents = await server.db.selectFrom("documents").select("id").where("folder_id", "=", objects.folderId).execute();
  const trashed = await server.db
    .selectFrom("documents")
    .select(["account_id as user_id", "original_filename", "trashed_from_folder_id"])
    .where("id", "=", objects.trashedDocumentId)
    .where("deleted_at", "is not", null)
    .executeTakeFirst();
  expect(folder).toEqual({ user_id: userId, parent_folder_id: null, named_as_seeded: true });
  expect(document).toEqual({ user_id: userId, original_filename: "w2.pdf", deleted_at: null });
  expect(trashed).toEqual({ user_id: userId, original_filename: "1099.pdf", trashed_from_folder_id: objects.folderId });
  expect(children).toEqual([]);
  expect(documents.map((d) => d.id)).toEqual([objects.documentId]);
  const request = await server.db
    .selectFrom("document_requests")
    .select(["account_id as user_id", "status"])
    .where("id", "=", objects.requestId)
    .executeTakeFirst();
  expect(request).toEqual({ user_id: userId, status: "open" });
}

// Issue 33, part 2: a staff member without all_clients, holding every other right, against an
// account assigned to them (C) and one that is not (D): every admin path that names an account's
// object or person answers the assigned one and 404 for the other, whose objects stay as they were.
describe("assigned accounts", () => {
  type Fixture = { user: UserFixture; objects: Objects; invitationId: string };
  let assigned: Fixture;
  let unassigned: Fixture;
  let staff: ApiClient;
  let staffId: string;

  /** What each path names, filled from a fixture; the body a write sends. */
  const ACCOUNT_ROUTES: Record<string, { path: (f: Fixture) => string; body?: (f: Fixture) => unknown }> = {
    "GET /admin/users/:id": { path: (f) => `/admin/users/${f.user.id}` },
    "GET /admin/users/:id/folders": { path: (f) => `/admin/users/${f.user.id}/folders` },
    "GET /admin/users/:id/documents": { path: (f) => `/admin/users/${f.user.id}/documents` },
    "POST /admin/users/:id/documents": { path: (f) => `/admin/users/${f.user.id}/documents`, body: () => ({}) },
    "PATCH /admin/users/:id/quota": { path: (f) => `/admin/users/${f.user.id}/quota`, body: () => ({ quota_mb: 500 }) },
    "GET /admin/documents/:id/download": { path: (f) => `/admin/documents/${f.objects.documentId}/download` },
    "GET /admin/documents/:id/preview": { path: (f) => `/admin/documents/${f.objects.documentId}/preview` },
    "POST /admin/trash/:id/restore": { path: (f) => `/admin/trash/${f.objects.trashedDocumentId}/restore`, body: () => ({}) },
    "GET /admin/messages/:user_id": { path: (f) => `/admin/messages/${f.user.id}` },
    "POST /admin/messages/:user_id": { path: (f) => `/admin/messages/${f.user.id}`, body: () => ({ text: "About your return" }) },
    "POST /admin/messages/:user_id/read": { path: (f) => `/admin/messages/${f.user.id}/read`, body: () => ({}) },
    "POST /admin/messages/:user_id/folder": { path: (f) => `/admin/messages/${f.user.id}/folder`, body: () => ({}) },
    "PATCH /admin/requests/:id": { path: (f) => `/admin/requests/${f.objects.requestId}`, body: () => ({ status: "done" }) },
    "PATCH /admin/appointments/:id": { path: (f) => `/admin/appointments/${f.objects.appointmentId}`, body: () => ({ title: "Moved by the firm" }) },
    "POST /admin/invitations/:id/resend": { path: (f) => `/admin/invitations/${f.invitationId}/resend`, body: () => ({}) },
    "GET /admin/accounts/:id/assignees": { path: (f) => `/admin/accounts/${f.user.id}/assignees` },
    "GET /admin/accounts/:id/access-report": { path: (f) => `/admin/accounts/${f.user.id}/access-report` },
    "PUT /admin/accounts/:id/assignees": { path: (f) => `/admin/accounts/${f.user.id}/assignees`, body: () => ({ user_ids: [staffId] }) },
    // Destructive: last.
    "DELETE /admin/documents/:id": { path: (f) => `/admin/documents/${f.objects.documentId}` },
    "DELETE /admin/invitations/:id": { path: (f) => `/admin/invitations/${f.invitationId}` },
    "DELETE /admin/users/:id": { path: (f) => `/admin/users/${f.user.id}` },
  };
  /** Admin paths with an id that names no client account: the firm's own things. */
  const FIRM_ROUTES = new Set([
    "PUT /admin/site-content/:section/:key",
    "DELETE /admin/site-content/:section/:key",
    "POST /admin/site-media/:slot",
    "DELETE /admin/site-media/:slot",
    "PUT /admin/consultations/:id",
    "POST /admin/consultations/:id/resend-email",
    "PATCH /admin/meeting-types/:id",
    "DELETE /admin/meeting-types/:id",
    "PATCH /admin/staff/:id",
    "DELETE /admin/staff/invitations/:id",
  ]);
  /** Paths naming an account in their body or query rather than their path. */
  const ACCOUNT_IN_BODY: [string, string, (f: Fixture) => unknown][] = [
    ["POST", "/admin/requests", (f) => ({ user_id: f.user.id, title: "1099-INT forms" })],
    ["POST", "/admin/appointments", (f) => ({ user_id: f.user.id, title: "Review", appointment_date: "2031-05-01T14:00:00Z" })],
  ];

  async function fixture(): Promise<Fixture> {
    const user = await createUser(server.db);
    const objects = await seedObjects(server.db, server.deps.storage, user.id);
    const invitation = await admin.post("/api/admin/invitations", { name: "Invited Client", email: `${randomUUID().slice(0, 8)}@example.com` });
    expect(invitation.status).toBe(201);
    const invitationId = (invitation.body as { id: string }).id;
    // The invitation's own account joins the fixture's, so its scope is the fixture's.
    await server.db.updateTable("invitations").set({ account_id: user.id }).where("id", "=", invitationId).execute();
    return { user, objects, invitationId };
  }

  beforeAll(async () => {
    const member = await createStaffMember(server.db, "staff", ["manage_clients", "documents", "requests", "messages", "appointments", "activity"]);
    staffId = member.id;
    staff = await loginClient(server.url, member, "admin");
    assigned = await fixture();
    unassigned = await fixture();
    const res = await admin.request("PUT", `/api/admin/accounts/${assigned.user.id}/assignees`, { json: { user_ids: [staffId] } });
    expect(res.status).toBe(200);
  });

  it("every admin path with an id is classified: it names a client account's object or person, or the firm's own", () => {
    const withId = Object.entries(REST_ACCESS)
      .filter(([route, access]) => access === "admin" && route.includes("/:"))
      .map(([route]) => route);
    for (const route of withId) expect({ route, classified: route in ACCOUNT_ROUTES || FIRM_ROUTES.has(route) }).toEqual({ route, classified: true });
  });

  it("tRPC: the same answers through the procedures the paths call", async () => {
    const calls: [string, "query" | "mutation", (f: Fixture) => unknown][] = [
      ["admin.client", "query", (f) => ({ id: f.user.id })],
      ["admin.clientFolders", "query", (f) => ({ id: f.user.id })],
      ["admin.messages", "query", (f) => ({ user_id: f.user.id })],
      ["admin.requestFolders", "query", (f) => ({ user_id: f.user.id })],
      ["admin.accountAssignees", "query", (f) => ({ account_id: f.user.id })],
      ["admin.accountAssignees", "query", (f) => ({ user_id: f.user.id })],
    ];
    for (const [path, type, input] of calls) {
      expect({ path, status: (await call(staff, path, type, input(unassigned))).status }).toEqual({ path, status: 404 });
      expect({ path, status: (await call(staff, path, type, input(assigned))).status }).toEqual({ path, status: 200 });
    }
  });

  it("REST: the assigned account's paths answer; the unassigned one's answer 404 and change nothing", async () => {
    for (const [method, path, body] of ACCOUNT_IN_BODY) {
      callsMade += 2;
      expect({ path, status: (await staff.request(method, `/api${path}`, { json: body(unassigned) })).status }).toEqual({ path, status: 404 });
      expect({ path, status: (await staff.request(method, `/api${path}`, { json: body(assigned) })).status }).toEqual({ path, status: 201 });
    }
    for (const [route, { path, body }] of Object.entries(ACCOUNT_ROUTES)) {
      const method = route.split(" ")[0]!;
      for (const [f, reachable] of [
        [unassigned, false],
        [assigned, true],
      ] as const) {
        callsMade++;
        const res = await staff.request(method, `/api${path(f)}`, body ? { json: body(f) } : method === "GET" ? {} : { json: {} });
        if (reachable) expect({ route, reached: ![401, 403, 404].includes(res.status) }).toEqual({ route, reached: true });
        else expect({ route, status: res.status }).toEqual({ route, status: 404 });
      }
    }
    await expectObjectsIntact(unassigned.objects, unassigned.user.id);
  });
});
