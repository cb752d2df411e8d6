// Issue 28, items 5 and 7: one session held 384 message event streams and locked everyone out of
// an instance; a stream kept hearing events for up to 5 minutes after its session ended. Each test
// replays the attack against the real server (and, on Postgres, a second instance on the same
// database, as a second app server would be).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_STREAMS_PER_SESSION, MAX_STREAMS_PER_USER } from "../../server/domains/messages/events.ts";
import { openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";
import { createUser, loginClient, type UserFixture } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = await loginClient(server.url, await createUser(server.db, { is_admin: true }), "admin");
});
afterAll(() => server.close());

async function client(): Promise<{ user: UserFixture; api: ApiClient }> {
  const user = await createUser(server.db);
  await server.db.updateTable("users").set({ email_verified_at: new Date() }).where("id", "=", user.id).execute();
  return { user, api: await loginClient(server.url, user) };
}

type Stream = { status: number; detail: string | null; ended: Promise<void>; isOpen: () => boolean; close: () => void };

/** Opens an event stream as EventSource would; resolves once the server answered (and, on 200, said it listens). */
async function openStream(api: ApiClient, path = "/api/messages/events", baseUrl = api.baseUrl): Promise<Stream> {
  const abort = new AbortController();
  const res = await fetch(new URL(path, baseUrl), {
    headers: { Accept: "text/event-stream", Cookie: [...api.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    signal: abort.signal,
  });
  if (res.status !== 200) {
    const body = (await res.json()) as { detail?: string };
    return { status: res.status, detail: body.detail ?? null, ended: Promise.resolve(), isOpen: () => false, close: () => undefined };
  }
  let open = true;
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  const ended = (async () => {
    try {
      for await (const chunk of res.body!) if (/event: ready/.test(Buffer.from(chunk).toString())) ready();
    } catch {
      // Closed by the test.
    }
    open = false;
    ready();
  })();
  await isReady;
  return { status: 200, detail: null, ended, isOpen: () => open, close: () => abort.abort() };
}

/** True when the stream ends within `ms`. */
function endsWithin(stream: Stream, ms: number): Promise<boolean> {
  return Promise.race([stream.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
}

async function currentSessionId(api: ApiClient): Promise<string> {
  const res = await api.get("/api/auth/sessions");
  return (res.body as Array<{ id: string; current: boolean }>).find((s) => s.current)!.id;
}

describe("how many streams one caller holds", () => {
  it("refuses a session's streams past the cap with 429 and a detail; a closed one frees its place", async () => {
    const { api } = await client();
    const streams: Stream[] = [];
    try {
      for (let i = 0; i < MAX_STREAMS_PER_SESSION + 3; i++) streams.push(await openStream(api));
      expect(streams.map((s) => s.status)).toEqual([...Array(MAX_STREAMS_PER_SESSION).fill(200), 429, 429, 429]);
      expect(streams.at(-1)!.detail).toMatch(/Too many live update connections/);
      streams[0]!.close();
      await streams[0]!.ended;
      await expect
        .poll(async () => {
          const again = await openStream(api);
          streams.push(again);
          return again.status;
        })
        .toBe(200);
    } finally {
      for (const s of streams) s.close();
    }
  });

  it("caps one user's streams across their sessions", async () => {
    const { user } = await client();
    const sessions = await Promise.all(Array.from({ length: 3 }, () => loginClient(server.url, user)));
    const streams: Stream[] = [];
    try {
      for (const api of sessions) for (let i = 0; i < MAX_STREAMS_PER_SESSION; i++) streams.push(await openStream(api));
      const opened = streams.filter((s) => s.status === 200).length;
      expect(opened).toBe(MAX_STREAMS_PER_USER);
      expect(streams.filter((s) => s.status === 429)).toHaveLength(3 * MAX_STREAMS_PER_SESSION - MAX_STREAMS_PER_USER);
      // Another client is not affected.
      const other = await openStream((await client()).api);
      streams.push(other);
      expect(other.status).toBe(200);
    } finally {
      for (const s of streams) s.close();
    }
  });

  it("caps the firm's streams the same way", async () => {
    const streams: Stream[] = [];
    try {
      for (let i = 0; i < MAX_STREAMS_PER_SESSION + 1; i++) streams.push(await openStream(admin, "/api/admin/messages/events"));
      expect(streams.at(-1)!.status).toBe(429);
    } finally {
      for (const s of streams) s.close();
    }
  });
});

describe("a stream ends with its session", () => {
  it("ends at once when the session is signed out from another one", async () => {
    const { user, api } = await client();
    const other = await loginClient(server.url, user);
    const stream = await openStream(api);
    try {
      const id = await currentSessionId(api);
      expect((await other.delete(`/api/auth/sessions/${id}`)).status).toBe(200);
      expect(await endsWithin(stream, 2000)).toBe(true);
      expect((await openStream(api)).status).toBe(401);
    } finally {
      stream.close();
    }
  });

  it("ends the other sessions' streams when the password changes", async () => {
    const { user, api } = await client();
    const other = await loginClient(server.url, user);
    const stream = await openStream(other);
    try {
      const res = await api.post("/api/auth/change-password", { current_password: user.password, new_password: "Another-Harbor-Ledger-77" });
      expect(res.status, res.text).toBe(200);
      expect(await endsWithin(stream, 2000)).toBe(true);
    } finally {
      stream.close();
    }
  });

  it("ends when the firm removes the user", async () => {
    const { user, api } = await client();
    const stream = await openStream(api);
    try {
      expect((await admin.delete(`/api/admin/users/${user.id}`)).status).toBe(200);
      expect(await endsWithin(stream, 2000)).toBe(true);
    } finally {
      stream.close();
    }
  });

  it("ends when the session expires, not minutes later", async () => {
    // An admin session is never renewed past its 12 hours: here it has 3 seconds left.
    const staff = await createUser(server.db, { is_admin: true });
    const api = await loginClient(server.url, staff, "admin");
    await server.db
      .updateTable("sessions")
      .set({ expires_at: new Date(server.clock.now().getTime() + 3000) })
      .where("user_id", "=", staff.id)
      .execute();
    const stream = await openStream(api, "/api/admin/messages/events");
    try {
      expect(stream.status).toBe(200);
      expect(await endsWithin(stream, 6000)).toBe(true);
    } finally {
      stream.close();
    }
  });

  it.skipIf(!process.env.DATABASE_URL)("ends on another instance when the session is signed out on this one", async () => {
    const handle = await openDatabase({ databaseUrl: server.database.url, dataDir: "memory://", logger: createLogger("silent") });
    const second = await startTestServer({ database: { ...handle, url: server.database.url, name: server.database.name } });
    try {
      const { user, api } = await client();
      const other = await loginClient(server.url, user);
      const stream = await openStream(api, "/api/messages/events", second.url);
      expect(stream.status).toBe(200);
      const id = await currentSessionId(api);
      expect((await other.delete(`/api/auth/sessions/${id}`)).status).toBe(200);
      expect(await endsWithin(stream, 2000)).toBe(true);
      stream.close();
    } finally {
      await second.close();
    }
  });
});
