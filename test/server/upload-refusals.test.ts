// A refused upload is told why (issue 29): a 5 MB upload past the storage quota got a broken
// connection (EPIPE) because the server answered and closed while the client was still sending,
// so neither the page nor a REST client ever saw "Storage quota exceeded". Replayed over real
// HTTP/1.1 keep-alive against the real server: the answer arrives, the connection stays open for
// the next request, and only a body past the 10 MB limit is cut.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UPLOADS_PER_USER_PER_HOUR } from "../../server/auth/rate-limit.ts";
import { createUser, loginClient } from "../helpers/factories.ts";
import type { ApiClient } from "../helpers/http.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const KB = 1024;
const MB = 1024 * KB;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { CLIENT_QUOTA_MB: "1" } });
});
afterAll(() => server.close());

type Answer = { status: number; body: { detail?: string; id?: string }; connection: string | undefined; reusedSocket: boolean };

/** A multipart body with one file of `bytes` bytes, and `fields` before it. */
function multipart(bytes: number, fields: Record<string, string> = {}): { body: Buffer; contentType: string } {
  const boundary = "----refused-upload-test";
  const head = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join("");
  const body = Buffer.concat([
    Buffer.from(
      `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="return.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    Buffer.alloc(bytes, 7),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * One request on `agent` (one keep-alive socket), written in 64 KB pieces as a client uploads. As
 * with fetch or a browser, the whole body must go out: a connection closed while it is still being
 * written (EPIPE, a reset) fails the request even if an answer had arrived.
 */
function send(
  agent: http.Agent,
  client: ApiClient,
  method: string,
  path: string,
  upload?: { body: Buffer; contentType: string; chunked?: boolean },
): Promise<Answer> {
  let written: () => void;
  let cut: (error: Error) => void;
  const bodySent = new Promise<void>((resolve, reject) => {
    written = resolve;
    cut = reject;
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    const headers: Record<string, string> = {
      Origin: server.url,
      Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    };
    if (upload) {
      headers["Content-Type"] = upload.contentType;
      // Chunked, the server learns the size only while reading, and refuses mid-body.
      if (!upload.chunked) headers["Content-Length"] = String(upload.body.length);
    }
    const req = http.request(new URL(path, server.url), { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
          connection: res.headers.connection,
          reusedSocket: req.reusedSocket,
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    let finished = false;
    req.on("finish", () => {
      finished = true;
      written();
    });
    // Once an answer has arrived Node reports no EPIPE on the request: the socket's own error, or
    // its closing before the last byte was written, is the broken connection a browser reports.
    let socketError: Error | undefined;
    req.on("socket", (socket) => socket.once("error", (error) => (socketError = error)));
    req.on("close", () => {
      if (!finished) cut(socketError ?? new Error("the connection closed while the body was being sent"));
    });
    if (!upload) {
      req.end();
      return;
    }
    let offset = 0;
    const writeMore = () => {
      while (offset < upload.body.length) {
        const piece = upload.body.subarray(offset, offset + 64 * KB);
        offset += piece.length;
        if (!req.write(piece)) {
          req.once("drain", writeMore);
          return;
        }
      }
      req.end();
    };
    writeMore();
  });
  return Promise.all([answer, bodySent]).then(([result]) => result);
}

async function clientWithUsedBytes(bytes: number) {
  const user = await createUser(server.db);
  const client = await loginClient(server.url, user);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  if (bytes > 0) expect((await send(agent, client, "POST", "/api/documents/upload", multipart(bytes))).status).toBe(201);
  return { user, client, agent };
}

describe("an upload refused before its body is read", () => {
  it.each([
    ["700 KB", 700 * KB],
    ["5 MB", 5 * MB],
  ])("answers 413 Storage quota exceeded to a %s body past a 1 MB quota, on a connection that stays open", async (_, bytes) => {
    const { user, client, agent } = await clientWithUsedBytes(500 * KB);
    try {
      const refused = await send(agent, client, "POST", "/api/documents/upload", multipart(bytes));
      expect(refused.status).toBe(413);
      expect(refused.body).toEqual({ detail: "Storage quota exceeded" });
      expect(refused.connection).not.toBe("close");
      expect(refused.reusedSocket).toBe(true);
      // The same connection serves the next request; nothing of the refused body was kept.
      const me = await send(agent, client, "GET", "/api/auth/me");
      expect(me.status).toBe(200);
      expect(me.reusedSocket).toBe(true);
      const rows = await server.db.selectFrom("documents").select("file_size").where("account_id", "=", user.id).execute();
      expect(rows.map((r) => r.file_size)).toEqual([500 * KB]);
    } finally {
      agent.destroy();
    }
  });

  it("answers 413 to a 5 MB chunked body refused part-way through, reading the rest first", async () => {
    const { user, client, agent } = await clientWithUsedBytes(500 * KB);
    try {
      const refused = await send(agent, client, "POST", "/api/documents/upload", { ...multipart(5 * MB), chunked: true });
      expect(refused.status).toBe(413);
      expect(refused.body).toEqual({ detail: "Storage quota exceeded" });
      expect(refused.connection).not.toBe("close");
      expect((await send(agent, client, "GET", "/api/auth/me")).reusedSocket).toBe(true);
      expect(await server.db.selectFrom("documents").select("id").where("account_id", "=", user.id).execute()).toHaveLength(1);
    } finally {
      agent.destroy();
    }
  });

  it("answers the hourly limit's 429 with its detail to a 5 MB body", async () => {
    const { user, client, agent } = await clientWithUsedBytes(0);
    try {
      for (let i = 0; i < MAX_UPLOADS_PER_USER_PER_HOUR; i++) await server.deps.rateLimits.consumeUpload(user.id);
      const refused = await send(agent, client, "POST", "/api/documents/upload", multipart(5 * MB));
      expect(refused.status).toBe(429);
      expect(refused.body.detail).toMatch(/uploads/i);
      expect(refused.connection).not.toBe("close");
    } finally {
      agent.destroy();
    }
  });

  it("refuses a folder or request that is not the client's before storing the 5 MB file after it, and answers 404 with its detail", async () => {
    const { user, client, agent } = await clientWithUsedBytes(0);
    const other = await createUser(server.db);
    const folder = await server.db
      .insertInto("folders")
      .values({ account_id: other.id, name: "Not yours", color: "#3B82F6" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const request = await server.db
      .insertInto("document_requests")
      .values({ account_id: other.id, title: "Their W-2", created_by: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    await server.db.updateTable("accounts").set({ storage_quota_mb: 20 }).where("id", "=", user.id).execute();
    const puts: string[] = [];
    const put = server.deps.storage.put.bind(server.deps.storage);
    server.deps.storage.put = (key, body) => {
      puts.push(key);
      return put(key, body);
    };
    try {
      for (const [fields, detail] of [
        [{ folder_id: folder.id }, "Folder not found"],
        [{ request_id: request.id }, /not found/i],
      ] as const) {
        const refused = await send(agent, client, "POST", "/api/documents/upload", multipart(5 * MB, fields));
        expect(refused.status, JSON.stringify(fields)).toBe(404);
        expect(refused.body.detail).toMatch(detail);
        expect(refused.connection).not.toBe("close");
      }
      expect(puts).toEqual([]);
      expect(await server.db.selectFrom("documents").select("id").where("account_id", "=", user.id).execute()).toEqual([]);
    } finally {
      server.deps.storage.put = put;
      agent.destroy();
    }
  });

  it("still cuts a body declared past the 10 MB limit, answering 413 and closing", async () => {
    const { client, agent } = await clientWithUsedBytes(0);
    try {
      await server.db
        .updateTable("accounts")
        .set({ storage_quota_mb: 100 })
        .where("id", "=", (await meOf(agent, client)).id)
        .execute();
      const res = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = http.request(new URL("/api/documents/upload", server.url), {
          method: "POST",
          agent,
          headers: {
            Origin: server.url,
            Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
            "Content-Type": "multipart/form-data; boundary=x",
            "Content-Length": String(20 * MB),
          },
        });
        req.on("response", (r) => {
          r.resume();
          resolve({ status: r.statusCode!, connection: r.headers.connection });
        });
        req.on("error", reject);
        // Only the headers: the server refuses on the declared length without reading a byte.
        req.flushHeaders();
      });
      expect(res).toEqual({ status: 413, connection: "close" });
    } finally {
      agent.destroy();
    }
  });
});

async function meOf(agent: http.Agent, client: ApiClient): Promise<{ id: string }> {
  const me = await send(agent, client, "GET", "/api/auth/me");
  return me.body as { id: string };
}
