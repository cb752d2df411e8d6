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
import { NO_ACCOUNT_DETAIL } from "../../server/trpc/procedures.ts";
import { PERSON_BEYOND_REACH } from "../../server/domains/admin/service.ts";
import { STAFF_RIGHTS } from "../../server/trpc/staff-rights.ts";
import {
  aloneWith,
  ANY_STAFF,
  PERSON_SCOPED,
  PROCEDURE_ACCESS,
  REST_ACCESS,
  refusalOf,
  rightOf,
  seedObjects,
  servedRestRoutes,
  trpc,
} from "./helpers.ts";

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

/** Procedures of one type in one tRPC batch, each with `{}`: the HTTP status and message of each one's answer. */
async function callBatch(client: ApiClient, paths: string[], type: "query" | "mutation") {
  callsMade += paths.length;
  const input = JSON.stringify(Object.fromEntries(paths.map((_, i) => [i, { json: {} }])));
  const url = `/trpc/${paths.join(",")}?batch=1`;
  const res =
    type === "query"
      ? await client.get(`${url}&input=${encodeURIComponent(input)}`)
      : await client.request("POST", url, { body: input, headers: { "Content-Type": "application/json" } });
  const answers = res.body as Array<{ error?: { json?: { message?: string; data?: { httpStatus?: number } } } }>;
  expect(answers, res.text).toHaveLength(paths.length);
  return answers.map((a) => ({ status: a.error?.json?.data?.httpStatus ?? 200, message: a.error?.json?.message }));
}

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

  it("the admin reaches every admin procedure but the owner's own", async () => {
    for (const { path, type } of procedures) {
      if (PROCEDURE_ACCESS[path] !== "admin") continue;
      const res = await call(admin, path, type, {});
      if (rightOf(path) === "owner")
        expect({ path, status: res.status, message: res.message }).toEqual({ path, status: 403, message: refusalOf("owner") });
      else expect([401, 403], path).not.toContain(res.status);
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
      ["requests.removeItemDocument", "mutation", { request_id: o.requestId, item_id: o.requestItemId, document_id: o.documentId }],
      ["organizers.get", "query", { id: o.organizerId }],
      ["organizers.saveAnswers", "mutation", { id: o.organizerId, answers: { moved: true } }],
      ["organizers.submit", "mutation", { id: o.organizerId }],
      ["organizers.unsubmit", "mutation", { id: o.organizerId }],
      ["signatures.get", "query", { id: o.signatureRequestId }],
      ["signatures.consent", "mutation", { id: o.signatureRequestId, disclosure_version: "2026-11-26" }],
      ["signatures.verifyStart", "mutation", { id: o.signatureRequestId }],
      ["signatures.verify", "mutation", { id: o.signatureRequestId, code: "123456" }],
      ["signatures.sign", "mutation", { id: o.signatureRequestId, signature: { type: "typed", text: "Not Mine" } }],
      ["signatures.decline", "mutation", { id: o.signatureRequestId, reason: "Not mine" }],
    ] as const;

  it("a foreign id answers exactly like a missing one (404), and changes nothing", async () => {
    const missing: Objects = {
      folderId: randomUUID(),
      documentId: randomUUID(),
      appointmentId: randomUUID(),
      trashedDocumentId: randomUUID(),
      requestId: randomUUID(),
      requestItemId: randomUUID(),
      organizerId: randomUUID(),
      signatureRequestId: randomUUID(),
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
      (await call(clientB, "organizers.list", "query")).data,
    ]);
    expect(seenByB).toContain(objectsB.organizerId);
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

  it("the admin reaches every admin path but the owner's own", async () => {
    for (const [route, access] of Object.entries(REST_ACCESS)) {
      if (access !== "admin" || route.startsWith("DELETE /admin/users")) continue;
      const res = await rest(admin, route);
      if (rightOf(route) === "owner")
        expect({ route, status: res.status, body: res.body }).toEqual({ route, status: 403, body: { detail: refusalOf("owner") } });
      else expect([401, 403], route).not.toContain(res.status);
    }
  });
});

describe("REST: tenants are isolated", () => {
  function uploadForm(folderId: string, field: "folder_id" | "request_id" | "organizer_id" = "folder_id") {
    const form = new FormData();
    form.append(field, folderId);
    if (field === "organizer_id") form.append("question_id", "w2_files");
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
      ["DELETE", `/api/requests/${o.requestId}/items/${o.requestItemId}/documents/${o.documentId}`, undefined],
      ["GET", `/api/organizers/${o.organizerId}`, undefined],
      ["PUT", `/api/organizers/${o.organizerId}/answers`, { json: { answers: { moved: true } } }],
      ["POST", `/api/organizers/${o.organizerId}/submit`, undefined],
      ["POST", `/api/organizers/${o.organizerId}/unsubmit`, undefined],
      ["POST", "/api/documents/upload", { body: uploadForm(o.organizerId, "organizer_id") }],
      ["GET", `/api/signature-requests/${o.signatureRequestId}`, undefined],
      ["GET", `/api/signature-requests/${o.signatureRequestId}/document`, undefined],
      ["POST", `/api/signature-requests/${o.signatureRequestId}/consent`, { json: { disclosure_version: "2026-11-26" } }],
      ["POST", `/api/signature-requests/${o.signatureRequestId}/verify/start`, undefined],
      ["POST", `/api/signature-requests/${o.signatureRequestId}/verify`, { json: { code: "123456" } }],
      ["POST", `/api/signature-requests/${o.signatureRequestId}/sign`, { json: { signature: { type: "typed", text: "Not Mine" } } }],
      ["POST", `/api/signature-requests/${o.signatureRequestId}/decline`, { json: { reason: "Not mine" } }],
    ] as const;

  it("a foreign id answers exactly like a missing one (404), and changes nothing", async () => {
    const missing: Objects = {
      folderId: randomUUID(),
      documentId: randomUUID(),
      appointmentId: randomUUID(),
      trashedDocumentId: randomUUID(),
      requestId: randomUUID(),
      requestItemId: randomUUID(),
      organizerId: randomUUID(),
      signatureRequestId: randomUUID(),
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
    callsMade += 8;
    const seenByB = JSON.stringify([
      (await clientB.get("/api/folders")).body,
      (await clientB.get("/api/documents/root")).body,
      (await clientB.get(`/api/documents/folder/${objectsB.folderId}`)).body,
      (await clientB.get("/api/documents/search")).body,
      (await clientB.get("/api/trash")).body,
      (await clientB.get("/api/appointments")).body,
      (await clientB.get("/api/requests")).body,
      (await clientB.get("/api/organizers")).body,
    ]);
    expect(seenByB).toContain(objectsB.requestId);
    expect(seenByB).toContain(objectsB.organizerId);
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
      else expect({ path, status: res.status, message: res.message }).toEqual({ path, status: 403, message: refusalOf(right) });
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
          body: { detail: refusalOf(right) },
        });
    }
  });

  // Each right alone, on every admin procedure and path (the tables in helpers.ts): a staff member
  // holding only that right reaches the targets needing it and those open to every person of the
  // firm, and gets 403 naming the right from every other. all_clients alone opens no target: it
  // widens the accounts reached (the "assigned accounts" tests below), not what may be done.
  it("each right alone reaches exactly its own procedures and paths and those open to all; every other answers 403 naming its right", async () => {
    const missing: string[] = [];
    const allowedWrongly: string[] = [];
    await Promise.all(
      STAFF_RIGHTS.map(async (right) => {
        const api = await loginClient(server.url, await createStaffMember(server.db, "staff", [right]), "admin");
        const check = (target: string, status: number, detail: string | undefined) => {
          const expected = aloneWith(right, target);
          if ("reached" in expected) {
            if (status === 401 || status === 403) missing.push(`${right}: ${target} answered ${status} ${detail}`);
          } else if (status !== 403 || detail !== expected.refusal) {
            allowedWrongly.push(`${right}: ${target} answered ${status} ${detail} (expected ${expected.refusal})`);
          }
        };
        // tRPC in batches of ten, as the web client may send them: each procedure's own answer.
        for (const type of ["query", "mutation"] as const) {
          const ofType = adminProcedures.filter((p) => p.type === type).map((p) => p.path);
          for (let i = 0; i < ofType.length; i += 10) {
            const batch = ofType.slice(i, i + 10);
            for (const [index, answer] of (await callBatch(api, batch, type)).entries()) check(batch[index]!, answer.status, answer.message);
          }
        }
        for (const route of adminRoutes) {
          // The owner's check above leaves out deleting users; so does this one (a missing id either way).
          const res = await restCall(api, route);
          check(route, res.status, (res.body as { detail?: string } | undefined)?.detail);
        }
      }),
    );
    expect(missing).toEqual([]);
    expect(allowedWrongly).toEqual([]);
  }, 60_000);

  it("the owner reaches every admin procedure and path", async () => {
    for (const { path, type } of adminProcedures) expect([401, 403], path).not.toContain((await call(owner, path, type, {})).status);
    for (const route of adminRoutes) {
      if (route.startsWith("DELETE /admin/users")) continue;
      expect([401, 403], route).not.toContain((await restCall(owner, route)).status);
    }
  });
});

// Issue 32: client accounts. Every client procedure and path that acts on the session's current
// account, called by the account's contact (who reaches it) and by four who must not: a contact of
// another account only, a contact removed while their session was on the account, a member without
// portal access, and a person who belongs to both accounts with their session on the other one.
// They get 404 for the account's objects, lists and counts holding nothing of it, streams that
// never carry its events, and leave every row of it as it was.
describe("client accounts: every client path for the account's contact and for those it must refuse", () => {
  type Answer = { status: number; text: string; message?: string };
  type Target = {
    /** list: answers the current account's data; object: names one of the account's objects; own: writes into the current account. */
    kind: "list" | "object" | "own";
    call: (api: ApiClient, o: Objects) => Promise<Answer>;
    /** What the account's contact must see in a list's answer. */
    shows?: (o: Objects) => string[];
  };
  const DENIED = ["other", "removed", "noPortal", "bothOnOther"] as const;
  type Denied = (typeof DENIED)[number];
  let owner: UserFixture;
  let objects: Objects;
  let otherObjects: Objects;
  let otherId: string;
  /** The individual account of the person in both, their own. */
  let bothId: string;
  let contact: ApiClient;
  let denied: Record<Denied, ApiClient>;
  /** The same person as bothOnOther, their session on the household. */
  let bothOnHousehold: ApiClient;
  let secrets: string[];
  const firmText = `Your 1040 is ready ${randomUUID().slice(0, 8)}`;
  const otherFirmText = `Organizer for the business ${randomUUID().slice(0, 8)}`;

  const rest =
    (method: string, path: (o: Objects) => string, body?: (o: Objects) => unknown) =>
    async (api: ApiClient, o: Objects): Promise<Answer> => {
      callsMade++;
      const payload = body?.(o);
      const res = await api.request(method, `/api${path(o)}`, payload instanceof FormData ? { body: payload } : payload ? { json: payload } : {});
      return { status: res.status, text: res.text, message: (res.body as { detail?: string } | undefined)?.detail };
    };
  const proc =
    (path: string, type: "query" | "mutation", input?: (o: Objects) => unknown) =>
    (api: ApiClient, o: Objects): Promise<Answer> =>
      call(api, path, type, input?.(o));
  const form = (field: string, id: string) => {
    const f = new FormData();
    f.append(field, id);
    f.append("file", new Blob(["probe"], { type: "text/plain" }), "probe.txt");
    return f;
  };
  const missingType = randomUUID();

  const REST_TARGETS: Record<string, Target> = {
    "GET /accounts": { kind: "list", call: rest("GET", () => "/accounts"), shows: () => [owner.id] },
    "POST /accounts/switch": {
      kind: "object",
      call: rest(
        "POST",
        () => "/accounts/switch",
        () => ({ account_id: owner.id }),
      ),
    },
    "GET /account/contacts": { kind: "list", call: rest("GET", () => "/account/contacts") },
    "POST /account/contacts": {
      kind: "own",
      call: rest(
        "POST",
        () => "/account/contacts",
        () => ({ name: "Probe Person", email: `probe-${randomUUID().slice(0, 8)}@example.com` }),
      ),
    },
    "DELETE /account/contacts/:userId": { kind: "own", call: rest("DELETE", () => `/account/contacts/${owner.id}`) },
    "PATCH /account/contacts/:userId": {
      kind: "own",
      call: rest(
        "PATCH",
        () => `/account/contacts/${owner.id}`,
        () => ({ household_role: "spouse" }),
      ),
    },
    "GET /folders": { kind: "list", call: rest("GET", () => "/folders"), shows: (o) => [o.folderId] },
    "POST /folders": {
      kind: "object",
      call: rest(
        "POST",
        () => "/folders",
        (o) => ({ name: "Nested", parent_folder_id: o.folderId }),
      ),
    },
    "DELETE /folders/:id": { kind: "object", call: rest("DELETE", (o) => `/folders/${o.folderId}`) },
    "PATCH /folders/:id": {
      kind: "object",
      call: rest(
        "PATCH",
        (o) => `/folders/${o.folderId}`,
        () => ({ name: "Taken" }),
      ),
    },
    "GET /folders/root/download": { kind: "list", call: rest("GET", () => "/folders/root/download"), shows: () => ["w2.pdf"] },
    "GET /account/export": { kind: "list", call: rest("GET", () => "/account/export"), shows: () => ["w2.pdf", firmText] },
    "GET /folders/:id/download": { kind: "object", call: rest("GET", (o) => `/folders/${o.folderId}/download`) },
    "GET /documents/root": { kind: "list", call: rest("GET", () => "/documents/root") },
    "GET /documents/usage": { kind: "list", call: rest("GET", () => "/documents/usage") },
    "GET /documents/folder/:folder_id": {
      kind: "object",
      call: rest("GET", (o) => `/documents/folder/${o.folderId}`),
    },
    "POST /documents/upload": {
      kind: "object",
      call: rest(
        "POST",
        () => "/documents/upload",
        (o) => form("folder_id", o.folderId),
      ),
    },
    "GET /documents/:id/download": { kind: "object", call: rest("GET", (o) => `/documents/${o.documentId}/download`) },
    "DELETE /documents/:id": { kind: "object", call: rest("DELETE", (o) => `/documents/${o.documentId}`) },
    "GET /documents/search": { kind: "list", call: rest("GET", () => "/documents/search"), shows: (o) => [o.documentId] },
    "PATCH /documents/:id": {
      kind: "object",
      call: rest(
        "PATCH",
        (o) => `/documents/${o.documentId}`,
        () => ({ name: "taken.pdf" }),
      ),
    },
    "GET /documents/:id/preview": { kind: "object", call: rest("GET", (o) => `/documents/${o.documentId}/preview`) },
    "GET /trash": { kind: "list", call: rest("GET", () => "/trash"), shows: (o) => [o.trashedDocumentId] },
    "POST /trash/:id/restore": { kind: "object", call: rest("POST", (o) => `/trash/${o.trashedDocumentId}/restore`) },
    "DELETE /trash/:id": { kind: "object", call: rest("DELETE", (o) => `/trash/${o.trashedDocumentId}`) },
    "GET /appointments": { kind: "list", call: rest("GET", () => "/appointments"), shows: (o) => [o.appointmentId] },
    "POST /appointments": {
      kind: "own",
      call: rest(
        "POST",
        () => "/appointments",
        () => ({ title: "Review", preferredDate: "2031-05-01", preferredTime: "morning", notes: "" }),
      ),
    },
    "GET /appointments/meeting-types": { kind: "list", call: rest("GET", () => "/appointments/meeting-types") },
    "GET /appointments/slots": { kind: "object", call: rest("GET", (o) => `/appointments/slots?appointment=${o.appointmentId}`) },
    "POST /appointments/book": {
      kind: "own",
      call: rest(
        "POST",
        () => "/appointments/book",
        () => ({ type: missingType, start: "2031-05-01T14:00:00Z" }),
      ),
    },
    "POST /appointments/:id/cancel": { kind: "object", call: rest("POST", (o) => `/appointments/${o.appointmentId}/cancel`) },
    "POST /appointments/:id/reschedule": {
      kind: "object",
      call: rest(
        "POST",
        (o) => `/appointments/${o.appointmentId}/reschedule`,
        () => ({ start: "2031-05-01T14:00:00Z" }),
      ),
    },
    "GET /activity": { kind: "list", call: rest("GET", () => "/activity?limit=100") },
    "GET /requests": { kind: "list", call: rest("GET", () => "/requests"), shows: (o) => [o.requestId] },
    "POST /requests/:id/submit": { kind: "object", call: rest("POST", (o) => `/requests/${o.requestId}/submit`) },
    "DELETE /requests/:id/items/:itemId/documents/:documentId": {
      kind: "object",
      call: rest("DELETE", (o) => `/requests/${o.requestId}/items/${o.requestItemId}/documents/${o.documentId}`),
    },
    "GET /organizers": { kind: "list", call: rest("GET", () => "/organizers"), shows: (o) => [o.organizerId] },
    "GET /organizers/:id": { kind: "object", call: rest("GET", (o) => `/organizers/${o.organizerId}`) },
    "PUT /organizers/:id/answers": {
      kind: "object",
      call: rest(
        "PUT",
        (o) => `/organizers/${o.organizerId}/answers`,
        () => ({ answers: { moved: true } }),
      ),
    },
    "POST /organizers/:id/submit": { kind: "object", call: rest("POST", (o) => `/organizers/${o.organizerId}/submit`) },
    "POST /organizers/:id/unsubmit": { kind: "object", call: rest("POST", (o) => `/organizers/${o.organizerId}/unsubmit`) },
    "GET /signature-requests": { kind: "list", call: rest("GET", () => "/signature-requests"), shows: (o) => [o.signatureRequestId] },
    "GET /signature-requests/:id": { kind: "object", call: rest("GET", (o) => `/signature-requests/${o.signatureRequestId}`) },
    "GET /signature-requests/:id/document": { kind: "object", call: rest("GET", (o) => `/signature-requests/${o.signatureRequestId}/document`) },
    "POST /signature-requests/:id/consent": {
      kind: "object",
      call: rest(
        "POST",
        (o) => `/signature-requests/${o.signatureRequestId}/consent`,
        () => ({ disclosure_version: "2026-11-26" }),
      ),
    },
    "POST /signature-requests/:id/decline": {
      kind: "object",
      call: rest(
        "POST",
        (o) => `/signature-requests/${o.signatureRequestId}/decline`,
        () => ({ reason: "Not now" }),
      ),
    },
    "POST /signature-requests/:id/verify/start": {
      kind: "object",
      call: rest("POST", (o) => `/signature-requests/${o.signatureRequestId}/verify/start`),
    },
    "POST /signature-requests/:id/verify": {
      kind: "object",
      call: rest(
        "POST",
        (o) => `/signature-requests/${o.signatureRequestId}/verify`,
        () => ({ code: "123456" }),
      ),
    },
    "POST /signature-requests/:id/sign": {
      kind: "object",
      call: rest(
        "POST",
        (o) => `/signature-requests/${o.signatureRequestId}/sign`,
        () => ({ signature: { type: "typed", text: "A Contact" } }),
      ),
    },
    "GET /messages": { kind: "list", call: rest("GET", () => "/messages"), shows: () => [firmText] },
    // Opened and read by the stream test below, which needs them open while the firm writes.
    "GET /messages/events": { kind: "list", call: async () => ({ status: 200, text: "" }) },
    "POST /messages": {
      kind: "own",
      call: rest(
        "POST",
        () => "/messages",
        () => ({ text: "Hello", document_ids: [] }),
      ),
    },
    "GET /messages/unread": { kind: "list", call: rest("GET", () => "/messages/unread") },
    "GET /messages/conversations": { kind: "list", call: rest("GET", () => "/messages/conversations") },
    "POST /messages/read": { kind: "own", call: rest("POST", () => "/messages/read") },
    "POST /messages/folder": { kind: "own", call: rest("POST", () => "/messages/folder") },
  };

  const PROCEDURE_TARGETS: Record<string, Target> = {
    "accounts.list": { kind: "list", call: proc("accounts.list", "query"), shows: () => [owner.id] },
    "accounts.current": { kind: "list", call: proc("accounts.current", "query"), shows: () => [owner.id] },
    "accounts.switch": { kind: "object", call: proc("accounts.switch", "mutation", () => ({ account_id: owner.id })) },
    "accountContacts.list": { kind: "list", call: proc("accountContacts.list", "query") },
    "accountContacts.invite": {
      kind: "own",
      call: proc("accountContacts.invite", "mutation", () => ({ name: "Probe Person", email: `probe-${randomUUID().slice(0, 8)}@example.com` })),
    },
    "accountContacts.remove": { kind: "own", call: proc("accountContacts.remove", "mutation", () => ({ user_id: owner.id })) },
    "accountContacts.updateRole": {
      kind: "own",
      call: proc("accountContacts.updateRole", "mutation", () => ({ user_id: owner.id, household_role: "spouse" })),
    },
    "folders.list": { kind: "list", call: proc("folders.list", "query"), shows: (o) => [o.folderId] },
    "folders.create": { kind: "object", call: proc("folders.create", "mutation", (o) => ({ name: "Nested", parent_folder_id: o.folderId })) },
    "folders.delete": { kind: "object", call: proc("folders.delete", "mutation", (o) => ({ id: o.folderId })) },
    "folders.update": { kind: "object", call: proc("folders.update", "mutation", (o) => ({ id: o.folderId, name: "Taken" })) },
    "documents.root": { kind: "list", call: proc("documents.root", "query") },
    "documents.inFolder": { kind: "object", call: proc("documents.inFolder", "query", (o) => ({ folder_id: o.folderId })) },
    "documents.delete": { kind: "object", call: proc("documents.delete", "mutation", (o) => ({ id: o.documentId })) },
    "documents.usage": { kind: "list", call: proc("documents.usage", "query") },
    "documents.search": { kind: "list", call: proc("documents.search", "query", () => ({})), shows: (o) => [o.documentId] },
    "documents.update": { kind: "object", call: proc("documents.update", "mutation", (o) => ({ id: o.documentId, name: "taken.pdf" })) },
    "documents.trash": { kind: "list", call: proc("documents.trash", "query"), shows: (o) => [o.trashedDocumentId] },
    "documents.restore": { kind: "object", call: proc("documents.restore", "mutation", (o) => ({ id: o.trashedDocumentId })) },
    "documents.deleteForever": { kind: "object", call: proc("documents.deleteForever", "mutation", (o) => ({ id: o.trashedDocumentId })) },
    "appointments.list": { kind: "list", call: proc("appointments.list", "query"), shows: (o) => [o.appointmentId] },
    "appointments.request": {
      kind: "own",
      call: proc("appointments.request", "mutation", () => ({ title: "Review", preferredDate: "2031-05-01", preferredTime: "morning", notes: "" })),
    },
    "appointments.meetingTypes": { kind: "list", call: proc("appointments.meetingTypes", "query") },
    "appointments.slots": { kind: "object", call: proc("appointments.slots", "query", (o) => ({ appointment: o.appointmentId })) },
    "appointments.book": { kind: "own", call: proc("appointments.book", "mutation", () => ({ type: missingType, start: "2031-05-01T14:00:00Z" })) },
    "appointments.cancel": { kind: "object", call: proc("appointments.cancel", "mutation", (o) => ({ id: o.appointmentId })) },
    "appointments.reschedule": {
      kind: "object",
      call: proc("appointments.reschedule", "mutation", (o) => ({ id: o.appointmentId, start: "2031-05-01T14:00:00Z" })),
    },
    "activity.list": { kind: "list", call: proc("activity.list", "query", () => ({ limit: 100 })) },
    "requests.list": { kind: "list", call: proc("requests.list", "query"), shows: (o) => [o.requestId] },
    "requests.submit": { kind: "object", call: proc("requests.submit", "mutation", (o) => ({ id: o.requestId })) },
    "requests.removeItemDocument": {
      kind: "object",
      call: proc("requests.removeItemDocument", "mutation", (o) => ({
        request_id: o.requestId,
        item_id: o.requestItemId,
        document_id: o.documentId,
      })),
    },
    "organizers.list": { kind: "list", call: proc("organizers.list", "query"), shows: (o) => [o.organizerId] },
    "organizers.get": { kind: "object", call: proc("organizers.get", "query", (o) => ({ id: o.organizerId })) },
    "organizers.saveAnswers": {
      kind: "object",
      call: proc("organizers.saveAnswers", "mutation", (o) => ({ id: o.organizerId, answers: { moved: true } })),
    },
    "organizers.submit": { kind: "object", call: proc("organizers.submit", "mutation", (o) => ({ id: o.organizerId })) },
    "organizers.unsubmit": { kind: "object", call: proc("organizers.unsubmit", "mutation", (o) => ({ id: o.organizerId })) },
    "signatures.list": { kind: "list", call: proc("signatures.list", "query"), shows: (o) => [o.signatureRequestId] },
    "signatures.get": { kind: "object", call: proc("signatures.get", "query", (o) => ({ id: o.signatureRequestId })) },
    "signatures.consent": {
      kind: "object",
      call: proc("signatures.consent", "mutation", (o) => ({ id: o.signatureRequestId, disclosure_version: "2026-11-26" })),
    },
    "signatures.decline": { kind: "object", call: proc("signatures.decline", "mutation", (o) => ({ id: o.signatureRequestId, reason: "Not now" })) },
    "signatures.verifyStart": { kind: "object", call: proc("signatures.verifyStart", "mutation", (o) => ({ id: o.signatureRequestId })) },
    "signatures.verify": { kind: "object", call: proc("signatures.verify", "mutation", (o) => ({ id: o.signatureRequestId, code: "123456" })) },
    "signatures.sign": {
      kind: "object",
      call: proc("signatures.sign", "mutation", (o) => ({ id: o.signatureRequestId, signature: { type: "typed", text: "A Contact" } })),
    },
    "messages.list": { kind: "list", call: proc("messages.list", "query", () => ({})), shows: () => [firmText] },
    "messages.send": { kind: "own", call: proc("messages.send", "mutation", () => ({ text: "Hello", document_ids: [] })) },
    "messages.unread": { kind: "list", call: proc("messages.unread", "query") },
    "messages.conversations": { kind: "list", call: proc("messages.conversations", "query") },
    "messages.markRead": { kind: "own", call: proc("messages.markRead", "mutation") },
    "messages.folder": { kind: "own", call: proc("messages.folder", "mutation") },
  };
  /** An account's owner invites and removes its people; the contact here is a member, refused with 403. */
  const OWNER_ONLY = new Set([
    "POST /account/contacts",
    "DELETE /account/contacts/:userId",
    "PATCH /account/contacts/:userId",
    "accountContacts.invite",
    "accountContacts.remove",
    "accountContacts.updateRole",
  ]);
  const REACHES_BOTH = new Set(["GET /accounts", "POST /accounts/switch", "accounts.list", "accounts.switch"]);
  const targets = () => [...Object.entries(REST_TARGETS), ...Object.entries(PROCEDURE_TARGETS)];

  /** Every row of the household's, so a refused caller's calls can be shown to have changed nothing. */
  async function householdRows() {
    const of = (table: "folders" | "documents" | "appointments" | "document_requests" | "messages" | "message_threads" | "organizers") =>
      server.db.selectFrom(table).selectAll().where("account_id", "=", owner.id).execute();
    const rows = await Promise.all([
      of("folders"),
      of("documents"),
      of("appointments"),
      of("document_requests"),
      of("messages"),
      of("message_threads"),
      of("organizers"),
    ]);
    return rows.map((r) => r.map((row) => JSON.stringify(row)).sort());
  }

  async function switchTo(api: ApiClient, accountId: string) {
    const res = await api.post("/api/accounts/switch", { account_id: accountId });
    expect(res.status, res.text).toBe(200);
  }

  beforeAll(async () => {
    const [ownerUser, member, otherUser, removedUser, noPortalUser, bothUser] = await Promise.all(
      Array.from({ length: 6 }, () => createUser(server.db)),
    );
    owner = ownerUser!;
    otherId = otherUser!.id;
    bothId = bothUser!.id;
    await server.db
      .insertInto("account_contacts")
      .values([
        { account_id: owner.id, user_id: member!.id, role: "member" },
        { account_id: owner.id, user_id: removedUser!.id, role: "member" },
        { account_id: owner.id, user_id: noPortalUser!.id, role: "member", portal_access: false },
        { account_id: owner.id, user_id: bothUser!.id, role: "member" },
        { account_id: otherUser!.id, user_id: bothUser!.id, role: "member" },
      ])
      .execute();
    const [memberApi, otherApi, removedApi, noPortalApi, bothApi, bothHouseholdApi] = await Promise.all(
      [member!, otherUser!, removedUser!, noPortalUser!, bothUser!, bothUser!].map((u) => loginClient(server.url, u)),
    );
    contact = memberApi!;
    bothOnHousehold = bothHouseholdApi!;
    denied = { other: otherApi!, removed: removedApi!, noPortal: noPortalApi!, bothOnOther: bothApi! };
    await switchTo(contact, owner.id);
    await switchTo(removedApi!, owner.id);
    await switchTo(bothOnHousehold, owner.id);
    await switchTo(bothApi!, otherUser!.id);
    // Removed while their session was on the household.
    await server.db.deleteFrom("account_contacts").where("account_id", "=", owner.id).where("user_id", "=", removedUser!.id).execute();

    objects = await seedObjects(server.db, server.deps.storage, owner.id);
    otherObjects = await seedObjects(server.db, server.deps.storage, otherUser!.id);
    expect((await admin.post(`/api/admin/messages/${owner.id}`, { text: firmText, document_ids: [] })).status).toBe(201);
    for (const text of [otherFirmText, `${otherFirmText} (2)`])
      expect((await admin.post(`/api/admin/messages/${otherUser!.id}`, { text, document_ids: [] })).status).toBe(201);
    const folderName = (await server.db.selectFrom("folders").select("name").where("id", "=", objects.folderId).executeTakeFirstOrThrow()).name;
    secrets = [...Object.values(objects), owner.id, owner.username!, folderName, firmText];
  });

  it("every client procedure and path that acts on the current account is listed here", () => {
    const accountTargets = [
      ...procedures.filter((p) => PROCEDURE_ACCESS[p.path] === "authed").map((p) => p.path),
      ...Object.keys(REST_ACCESS).filter((route) => REST_ACCESS[route] === "authed"),
    ].filter((target) => !PERSON_SCOPED.has(target));
    expect(accountTargets.sort()).toEqual(
      targets()
        .map(([target]) => target)
        .sort(),
    );
  });

  it("the refused four get 404 for the account's objects and nothing of it in lists, and change none of its rows", async () => {
    const before = await householdRows();
    for (const who of DENIED) {
      for (const [target, { kind, call: run }] of targets()) {
        // The person in both accounts does reach the household: it is in their accounts, and theirs to switch to.
        if (who === "bothOnOther" && REACHES_BOTH.has(target)) continue;
        const res = await run(denied[who], objects);
        if (kind === "object") expect({ who, target, status: res.status }).toEqual({ who, target, status: 404 });
        else expect({ who, target, status: res.status < 500 }).toEqual({ who, target, status: true });
        for (const secret of secrets) expect({ who, target, leaked: res.text.includes(secret) }).toEqual({ who, target, leaked: false });
      }
    }
    expect(await householdRows()).toEqual(before);
    await expectObjectsIntact(objects, owner.id);
  });

  it("a person in both accounts sees, on the other one, its data and counts only", async () => {
    const both = denied.bothOnOther;
    expect(((await both.get("/api/accounts")).body as { id: string }[]).map((a) => a.id).sort()).toEqual([owner.id, otherId, bothId].sort());
    expect(((await call(both, "accounts.current", "query")).data as { id: string }).id).toBe(otherId);
    const shown = JSON.stringify([
      (await both.get("/api/folders")).body,
      (await both.get("/api/documents/search")).body,
      (await both.get("/api/trash")).body,
      (await both.get("/api/requests")).body,
      (await both.get("/api/appointments")).body,
      (await both.get("/api/messages")).body,
      (await both.get("/api/organizers")).body,
      (await both.get("/api/signature-requests")).body,
    ]);
    callsMade += 8;
    for (const id of Object.values(otherObjects)) expect(shown).toContain(id);
    expect(shown).toContain(otherFirmText);
    // Counts: the other account's alone, not the sum of both.
    expect((await both.get("/api/messages/unread")).body).toEqual((await denied.other.get("/api/messages/unread")).body);
    expect((await both.get("/api/documents/usage")).body).toEqual((await denied.other.get("/api/documents/usage")).body);
    const householdUnread = (await bothOnHousehold.get("/api/messages/unread")).body as { unread: number };
    const otherUnread = (await both.get("/api/messages/unread")).body as { unread: number };
    callsMade += 6;
    expect(householdUnread.unread).toBeGreaterThan(0);
    expect(householdUnread.unread).not.toBe(otherUnread.unread);
    // The same person's activity on the household names only its objects.
    const trail = (await bothOnHousehold.get("/api/activity?limit=100")).text;
    for (const id of Object.values(otherObjects)) expect(trail).not.toContain(id);
  });

  it("a private conversation of one person of the household: its other people read none of it on any path", async () => {
    // docs/decisions.md, "Private conversations": only the owner and the firm read it.
    const ownerApi = await loginClient(server.url, owner);
    const fromOwner = `owner only ${randomUUID()}`;
    const fromFirm = `firm to the owner only ${randomUUID()}`;
    const unreadBefore = new Map<ApiClient, unknown>();
    for (const who of [contact, bothOnHousehold]) unreadBefore.set(who, (await who.get("/api/messages/unread")).body);
    expect((await ownerApi.post("/api/messages", { text: fromOwner, conversation: "private" })).status).toBe(201);
    const listed = (await admin.get("/api/admin/messages")).body as Array<{ account_id: string; conversation_id: string; is_private: boolean }>;
    const conversationId = listed.find((c) => c.account_id === owner.id && c.is_private)!.conversation_id;
    expect((await admin.post(`/api/admin/messages/${owner.id}`, { text: fromFirm, conversation_id: conversationId })).status).toBe(201);
    callsMade += 4;
    for (const [name, who] of [
      ["contact", contact],
      ["bothOnHousehold", bothOnHousehold],
    ] as const) {
      const reads: Array<[string, Promise<ApiResponse>]> = [
        ...targets()
          .filter(([, { kind }]) => kind === "list")
          .map(([target, { call: run }]) => [target, run(who, objects)] as [string, Promise<ApiResponse>]),
        ["GET /messages?conversation=private", who.get("/api/messages?conversation=private")],
        [`GET /messages?conversation_id=${conversationId}`, who.get(`/api/messages?conversation=private&conversation_id=${conversationId}`)],
      ];
      for (const [target, pending] of reads) {
        const res = await pending;
        callsMade++;
        for (const secret of [fromOwner, fromFirm])
          expect({ name, target, leaked: res.text.includes(secret) }).toEqual({ name, target, leaked: false });
      }
      expect({ name, unread: (await who.get("/api/messages/unread")).body }).toEqual({ name, unread: unreadBefore.get(who) });
    }
    expect((await ownerApi.get("/api/messages?conversation=private")).text).toContain(fromFirm);
  });

  it("an event of the household reaches its streams only, whoever belongs to both", async () => {
    const open = async (api: ApiClient) => {
      callsMade++;
      const abort = new AbortController();
      const res = await fetch(new URL("/api/messages/events", server.url), {
        headers: { Accept: "text/event-stream", Cookie: [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
        signal: abort.signal,
      });
      expect(res.status).toBe(200);
      let text = "";
      let ready!: () => void;
      const isReady = new Promise<void>((resolve) => (ready = resolve));
      void (async () => {
        try {
          for await (const chunk of res.body!) {
            text += new TextDecoder().decode(chunk);
            if (text.includes("event: ready")) ready();
          }
        } catch {
          // Closed by the test.
        }
      })();
      await isReady;
      return { data: () => text.split("\n").filter((line) => line.startsWith("data:") && line !== "data: {}"), close: () => abort.abort() };
    };
    const streams = {
      contact: await open(contact),
      bothOnHousehold: await open(bothOnHousehold),
      ...Object.fromEntries(await Promise.all(DENIED.map(async (who) => [who, await open(denied[who])] as const))),
    } as Record<"contact" | "bothOnHousehold" | Denied, Awaited<ReturnType<typeof open>>>;
    try {
      expect((await admin.post(`/api/admin/messages/${owner.id}`, { text: "Signed 8879 received", document_ids: [] })).status).toBe(201);
      callsMade++;
      const deadline = Date.now() + 10_000;
      while ((streams.contact.data().length === 0 || streams.bothOnHousehold.data().length === 0) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(streams.contact.data()).toEqual([`data: ${JSON.stringify({ client_id: owner.id })}`]);
      expect(streams.bothOnHousehold.data()).toEqual(streams.contact.data());
      // Give a stray event time to arrive where it must not.
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (const who of DENIED) expect({ who, events: streams[who].data() }).toEqual({ who, events: [] });
    } finally {
      for (const stream of Object.values(streams)) stream.close();
    }
  });

  it("the account's contact reaches every one of them", async () => {
    for (const [target, { kind, call: run, shows }] of targets()) {
      // Each call that names an object gets objects of its own, since some delete or move them.
      const o = kind === "object" ? await seedObjects(server.db, server.deps.storage, owner.id) : objects;
      const res = await run(contact, o);
      if (OWNER_ONLY.has(target)) {
        expect({ target, status: res.status }).toEqual({ target, status: 403 });
        continue;
      }
      expect({ target, refused: [401, 403].includes(res.status) || res.message === NO_ACCOUNT_DETAIL }).toEqual({ target, refused: false });
      if (kind === "object") expect({ target, status: res.status === 404 }).toEqual({ target, status: false });
      if (kind === "list") expect({ target, status: res.status }).toEqual({ target, status: 200 });
      for (const shown of shows?.(o) ?? []) expect({ target, shown: res.text.includes(shown) }).toEqual({ target, shown: true });
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
  const organizer = await server.db
    .selectFrom("organizers")
    .select(["account_id", "status"])
    .where("id", "=", objects.organizerId)
    .executeTakeFirst();
  expect(organizer).toEqual({ account_id: userId, status: "sent" });
  expect(await server.db.selectFrom("organizer_answers").select("question_id").where("organizer_id", "=", objects.organizerId).execute()).toEqual([]);
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
    "POST /admin/users/:id/folders": { path: (f) => `/admin/users/${f.user.id}/folders`, body: () => ({ name: "From the firm" }) },
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
    "PATCH /admin/requests/:id/items/:itemId": {
      path: (f) => `/admin/requests/${f.objects.requestId}/items/${f.objects.requestItemId}`,
      body: () => ({ status: "done" }),
    },
    "PATCH /admin/appointments/:id": { path: (f) => `/admin/appointments/${f.objects.appointmentId}`, body: () => ({ title: "Moved by the firm" }) },
    "POST /admin/invitations/:id/resend": { path: (f) => `/admin/invitations/${f.invitationId}/resend`, body: () => ({}) },
    "GET /admin/accounts/:id/assignees": { path: (f) => `/admin/accounts/${f.user.id}/assignees` },
    "GET /admin/accounts/:id/access-report": { path: (f) => `/admin/accounts/${f.user.id}/access-report` },
    "GET /admin/accounts/:id/export": { path: (f) => `/admin/accounts/${f.user.id}/export` },
    "GET /admin/accounts/:id/legal-hold": { path: (f) => `/admin/accounts/${f.user.id}/legal-hold` },
    "POST /admin/accounts/:id/legal-hold": { path: (f) => `/admin/accounts/${f.user.id}/legal-hold`, body: () => ({ reason: "Probe" }) },
    "DELETE /admin/accounts/:id/legal-hold": { path: (f) => `/admin/accounts/${f.user.id}/legal-hold` },
    "PUT /admin/accounts/:id/assignees": { path: (f) => `/admin/accounts/${f.user.id}/assignees`, body: () => ({ user_ids: [staffId] }) },
    "GET /admin/accounts/:id": { path: (f) => `/admin/accounts/${f.user.id}` },
    "PATCH /admin/accounts/:id": { path: (f) => `/admin/accounts/${f.user.id}`, body: () => ({ kind: "household" }) },
    "POST /admin/accounts/:id/contacts": {
      path: (f) => `/admin/accounts/${f.user.id}/contacts`,
      body: () => ({ name: "Second Person", email: `second-${randomUUID().slice(0, 8)}@example.com` }),
    },
    "PATCH /admin/accounts/:id/contacts/:userId": {
      path: (f) => `/admin/accounts/${f.user.id}/contacts/${f.user.id}`,
      body: () => ({ notify: true }),
    },
    "GET /admin/accounts/:id/notes": { path: (f) => `/admin/accounts/${f.user.id}/notes` },
    "POST /admin/accounts/:id/notes": { path: (f) => `/admin/accounts/${f.user.id}/notes`, body: () => ({ body: "Called about the extension" }) },
    "GET /admin/organizers/:id": { path: (f) => `/admin/organizers/${f.objects.organizerId}` },
    "GET /admin/organizers/:id/pdf": { path: (f) => `/admin/organizers/${f.objects.organizerId}/pdf` },
    "POST /admin/organizers/:id/send": { path: (f) => `/admin/organizers/${f.objects.organizerId}/send`, body: () => ({}) },
    "PUT /admin/organizers/:id/answers/:questionId/reviewed": {
      path: (f) => `/admin/organizers/${f.objects.organizerId}/answers/moved/reviewed`,
      body: () => ({ reviewed: true }),
    },
    "POST /admin/organizers/:id/reopen": {
      path: (f) => `/admin/organizers/${f.objects.organizerId}/reopen`,
      body: () => ({ comment: "Which bank?" }),
    },
    "GET /admin/signature-requests/:id": { path: (f) => `/admin/signature-requests/${f.objects.signatureRequestId}` },
    "POST /admin/signature-requests/:id/signers/:index/in-person": {
      path: (f) => `/admin/signature-requests/${f.objects.signatureRequestId}/signers/0/in-person`,
      body: () => ({ id_document: "Passport" }),
    },
    "POST /admin/signature-requests/:id/remind": {
      path: (f) => `/admin/signature-requests/${f.objects.signatureRequestId}/remind`,
      body: () => ({}),
    },
    "POST /admin/signature-requests/:id/void": { path: (f) => `/admin/signature-requests/${f.objects.signatureRequestId}/void`, body: () => ({}) },
    // Destructive: last.
    "DELETE /admin/documents/:id": { path: (f) => `/admin/documents/${f.objects.documentId}` },
    "DELETE /admin/invitations/:id": { path: (f) => `/admin/invitations/${f.invitationId}` },
    "DELETE /admin/users/:id": { path: (f) => `/admin/users/${f.user.id}` },
  };
  /**
   * Account paths whose call here would undo the fixture (removing the account's only person leaves
   * it without people, and the person paths after it then find nothing), or that need what the
   * fixture does not hold; the unassigned 404 is in test/server/staff-assignments.test.ts (and, for
   * the notes, test/server/admin-accounts.test.ts).
   */
  const ACCOUNT_ROUTES_ELSEWHERE = new Set([
    "DELETE /admin/accounts/:id/contacts/:userId",
    // A note's author alone changes it, so these need a note of the staff member's own: test/server/admin-accounts.test.ts.
    "PATCH /admin/accounts/:id/notes/:noteId",
    "DELETE /admin/accounts/:id/notes/:noteId",
  ]);
  /** Admin paths with an id that names no client account: the firm's own things. */
  const FIRM_ROUTES = new Set([
    "PUT /admin/site-content/:section/:key",
    "DELETE /admin/site-content/:section/:key",
    "POST /admin/site-media/:slot",
    "DELETE /admin/site-media/:slot",
    "PUT /admin/consultations/:id",
    "POST /admin/consultations/:id/resend-email",
    "POST /admin/consultations/:id/invite",
    "PATCH /admin/meeting-types/:id",
    "DELETE /admin/meeting-types/:id",
    "PATCH /admin/staff/:id",
    "DELETE /admin/staff/invitations/:id",
    "PATCH /admin/request-templates/:id",
    "DELETE /admin/request-templates/:id",
    "POST /admin/staff/invitations/:id/resend",
    "GET /admin/organizer-templates/:id",
    "PUT /admin/organizer-templates/:id",
    "DELETE /admin/organizer-templates/:id",
    // The firm's template; its rows are only those of the accounts the asker reaches (organizers.test.ts).
    "GET /admin/organizer-templates/:id/answers.csv",
  ]);
  /** Paths naming an account in their body or query rather than their path. */
  const ACCOUNT_IN_BODY: [string, string, (f: Fixture) => unknown][] = [
    ["POST", "/admin/requests", (f) => ({ user_id: f.user.id, title: "1099-INT forms" })],
    ["POST", "/admin/appointments", (f) => ({ user_id: f.user.id, title: "Review", appointment_date: "2031-05-01T14:00:00Z" })],
    ["POST", "/admin/organizers", (f) => ({ account_id: f.user.id, template_id: organizerTemplateId, title: "2026 organizer" })],
  ];
  let organizerTemplateId: string;

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
    const member = await createStaffMember(server.db, "staff", [
      "manage_clients",
      "documents",
      "requests",
      "messages",
      "appointments",
      "activity",
      // An account's legal hold (issue 37) is the settings right's.
      "settings",
    ]);
    staffId = member.id;
    staff = await loginClient(server.url, member, "admin");
    const template = await admin.post("/api/admin/organizer-templates", {
      name: "Probe organizer",
      template: { sections: [{ title: "Life", questions: [{ id: "moved", type: "yes_no", label: "Did you move?" }] }] },
    });
    expect(template.status, template.text).toBe(201);
    organizerTemplateId = (template.body as { id: string }).id;
    assigned = await fixture();
    unassigned = await fixture();
    const res = await admin.request("PUT", `/api/admin/accounts/${assigned.user.id}/assignees`, { json: { user_ids: [staffId] } });
    expect(res.status).toBe(200);
  });

  it("every admin path with an id is classified: it names a client account's object or person, or the firm's own", () => {
    const withId = Object.entries(REST_ACCESS)
      .filter(([route, access]) => access === "admin" && route.includes("/:"))
      .map(([route]) => route);
    for (const route of withId)
      expect({ route, classified: route in ACCOUNT_ROUTES || ACCOUNT_ROUTES_ELSEWHERE.has(route) || FIRM_ROUTES.has(route) }).toEqual({
        route,
        classified: true,
      });
  });

  it("tRPC: the same answers through the procedures the paths call", async () => {
    const calls: [string, "query" | "mutation", (f: Fixture) => unknown][] = [
      ["admin.clients.get", "query", (f) => ({ id: f.user.id })],
      ["admin.clients.folders", "query", (f) => ({ id: f.user.id })],
      ["admin.messages.list", "query", (f) => ({ user_id: f.user.id })],
      ["admin.requests.folders", "query", (f) => ({ user_id: f.user.id })],
      ["admin.staff.accountAssignees", "query", (f) => ({ account_id: f.user.id })],
      ["admin.staff.accountAssignees", "query", (f) => ({ user_id: f.user.id })],
    ];
    for (const [path, type, input] of calls) {
      expect({ path, status: (await call(staff, path, type, input(unassigned))).status }).toEqual({ path, status: 404 });
      expect({ path, status: (await call(staff, path, type, input(assigned))).status }).toEqual({ path, status: 200 });
    }
  });

  it("admin.staff.accountReach tells a staff member that an unassigned client is not theirs, and who assigns, but nothing of the client", async () => {
    const reach = async (input: unknown) => {
      const res = await call(staff, "admin.staff.accountReach", "query", input);
      expect(res.status, res.text).toBe(200);
      return res.data as { reach: string; assigners: { name: string; role: string }[] };
    };
    for (const input of [{ account_id: unassigned.user.id }, { user_id: unassigned.user.id }]) {
      const answer = await reach(input);
      expect(answer.reach).toBe("not_assigned");
      // The firm's admins may assign; the staff member asking (manage_clients without all_clients) may not.
      expect(answer.assigners.length).toBeGreaterThan(0);
      expect(answer.assigners.every((person) => person.role === "owner" || person.role === "admin")).toBe(true);
      // Not the client's name, username or email: only that the id is a client's.
      const text = JSON.stringify(answer);
      for (const secret of [unassigned.user.name, unassigned.user.username!, unassigned.user.email]) expect(text).not.toContain(secret);
    }
    expect((await reach({ account_id: assigned.user.id })).reach).toBe("reached");
    expect((await reach({ user_id: assigned.user.id })).reach).toBe("reached");
    // A missing id, and a person of the firm (no client page), are not found.
    expect(await reach({ account_id: randomUUID() })).toEqual({ reach: "not_found", assigners: [] });
    expect(await reach({ user_id: staffId })).toEqual({ reach: "not_found", assigners: [] });
    // Someone who reaches every account is never told "not assigned": a 404 is a missing client.
    const everyAccount = await call(admin, "admin.staff.accountReach", "query", { account_id: randomUUID() });
    expect(everyAccount.data).toEqual({ reach: "not_found", assigners: [] });
    expect((await call(admin, "admin.staff.accountReach", "query", { account_id: unassigned.user.id })).data).toEqual({
      reach: "reached",
      assigners: [],
    });
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

// Issue 47, item 1 (docs/security.md, Round 4): the actions that touch more than one account at
// once, by a staff member whose reach is one account (C), against an account beyond it (D). Each is
// checked for every account it touches, not for its entry point: a person of D is never linked into
// C at once (an invitation instead), a person in D is never deleted through C, D is never deleted
// with its last person, and no document or folder of D is moved or copied into C.
describe("multi-account actions, by a staff member scoped to one account", () => {
  type Fixture = { user: UserFixture; objects: Objects };
  let staff: ApiClient;
  let inReach: Fixture;
  let beyond: Fixture;

  async function fixture(): Promise<Fixture> {
    const user = await createUser(server.db, { email: `reach-${randomUUID().slice(0, 8)}@example.com` });
    await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
    return { user, objects: await seedObjects(server.db, server.deps.storage, user.id) };
  }
  const contactsOf = async (userId: string) =>
    (await server.db.selectFrom("account_contacts").select("account_id").where("user_id", "=", userId).orderBy("account_id").execute()).map(
      (r) => r.account_id,
    );
  const documentsIn = async (accountId: string) =>
    (await server.db.selectFrom("documents").select("id").where("account_id", "=", accountId).orderBy("id").execute()).map((r) => r.id);

  beforeAll(async () => {
    const member = await createStaffMember(server.db, "staff", ["manage_clients", "documents", "messages", "requests"]);
    staff = await loginClient(server.url, member, "admin");
    inReach = await fixture();
    beyond = await fixture();
    const res = await admin.request("PUT", `/api/admin/accounts/${inReach.user.id}/assignees`, { json: { user_ids: [member.id] } });
    expect(res.status).toBe(200);
  });

  it("add a person: D's only person is invited to C (joins only by accepting), never linked at once", async () => {
    callsMade++;
    const res = await staff.post(`/api/admin/accounts/${inReach.user.id}/contacts`, { name: "Beyond", email: beyond.user.email });
    expect(res.status, res.text).toBe(201);
    expect((res.body as { contacts: { email: string; user_id: string | null }[] }).contacts.find((c) => c.email === beyond.user.email)).toMatchObject(
      {
        user_id: null,
      },
    );
    expect(await contactsOf(beyond.user.id)).toEqual([beyond.user.id]);
    await expectObjectsIntact(beyond.objects, beyond.user.id);
  });

  it("delete a person, delete an account: a person also in D is refused (403 saying why); D, its folders and documents stay", async () => {
    // The firm's owner links D's person into C too (the owner reaches both).
    const linked = await admin.post(`/api/admin/accounts/${inReach.user.id}/contacts`, { name: "Beyond", email: beyond.user.email });
    expect(linked.status, linked.text).toBe(201);
    expect(await contactsOf(beyond.user.id)).toEqual([inReach.user.id, beyond.user.id].sort());
    const before = await documentsIn(beyond.user.id);
    callsMade += 2;
    const refused = await staff.delete(`/api/admin/users/${beyond.user.id}`);
    expect({ status: refused.status, detail: refused.body.detail }).toEqual({ status: 403, detail: PERSON_BEYOND_REACH });
    const trpcRefused = await call(staff, "admin.deleteUser", "mutation", { id: beyond.user.id });
    expect({ status: trpcRefused.status, message: trpcRefused.message }).toEqual({ status: 403, message: PERSON_BEYOND_REACH });
    expect(await server.db.selectFrom("accounts").select("id").where("id", "=", beyond.user.id).executeTakeFirst()).toBeDefined();
    expect(await documentsIn(beyond.user.id)).toEqual(before);
    expect(await contactsOf(beyond.user.id)).toEqual([inReach.user.id, beyond.user.id].sort());
    await expectObjectsIntact(beyond.objects, beyond.user.id);
  });

  it("move a document: no firm path puts a document or folder of D into C (404, as for a missing one)", async () => {
    const before = { inReach: await documentsIn(inReach.user.id), beyond: await documentsIn(beyond.user.id) };
    const form = new FormData();
    form.append("folder_id", beyond.objects.folderId);
    form.append("file", new Blob(["moved"], { type: "text/plain" }), "moved.txt");
    const attempts: [string, () => Promise<ApiResponse>][] = [
      [
        "POST /admin/messages/:user_id with D's document",
        () => staff.post(`/api/admin/messages/${inReach.user.id}`, { text: "Yours now", document_ids: [beyond.objects.documentId] }),
      ],
      [
        "POST /admin/users/:id/documents into D's folder",
        () => staff.request("POST", `/api/admin/users/${inReach.user.id}/documents`, { body: form }),
      ],
      [
        "POST /admin/requests with D's folder",
        () => staff.post("/api/admin/requests", { user_id: inReach.user.id, title: "Moved", folder_id: beyond.objects.folderId }),
      ],
      [
        "POST /admin/signature-requests with D's document",
        () =>
          staff.post("/api/admin/signature-requests", {
            account_id: inReach.user.id,
            document_id: beyond.objects.documentId,
            title: "Moved",
            kind: "other",
            signers: [{ user_id: inReach.user.id }],
            fields: [{ signer: 0, type: "signature", page: 1, x: 0.1, y: 0.1, width: 0.2, height: 0.05 }],
          }),
      ],
    ];
    for (const [what, attempt] of attempts) {
      callsMade++;
      expect({ what, status: (await attempt()).status }).toEqual({ what, status: 404 });
    }
    expect({ inReach: await documentsIn(inReach.user.id), beyond: await documentsIn(beyond.user.id) }).toEqual(before);
    await expectObjectsIntact(beyond.objects, beyond.user.id);
  });

  it("delete an account: the last person of C alone takes C with them (the reached account, the control)", async () => {
    const own = await fixture();
    const res = await admin.request("PUT", `/api/admin/accounts/${own.user.id}/assignees`, {
      json: { user_ids: [(await staff.get("/api/admin/me")).body.id] },
    });
    expect(res.status).toBe(200);
    callsMade++;
    expect((await staff.delete(`/api/admin/users/${own.user.id}`)).status).toBe(200);
    expect(await server.db.selectFrom("accounts").select("id").where("id", "=", own.user.id).executeTakeFirst()).toBeUndefined();
  });
});
