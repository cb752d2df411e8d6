// The baselines: a bare node:http server with a plain pg pool doing the app's work without the
// framework (same session lookup SQL, same folder listing SQL), and busboy streaming uploads to disk.
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import pg from "pg";
import { POOL_SIZE } from "../../server/db/database.ts";

const databaseUrl = process.env.DATABASE_URL;
const uploadDir = process.env.BENCH_UPLOAD_DIR;
if (!databaseUrl || !uploadDir) throw new Error("DATABASE_URL and BENCH_UPLOAD_DIR are required");
fs.mkdirSync(uploadDir, { recursive: true });

// The app's pool settings (server/db/database.ts).
const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE, min: POOL_SIZE });
pool.on("error", () => {});

// What Kysely compiles validateSessionToken (server/auth/session.ts) to.
const SESSION_SQL = `select "sessions"."id" as "session_id", "sessions"."kind", "sessions"."expires_at", "sessions"."last_used_at", "users"."id", "users"."name", "users"."email", "users"."username", "users"."auth_provider", "users"."created_at", "users"."is_admin" from "sessions" inner join "users" on "users"."id" = "sessions"."user_id" where "sessions"."id" = $1`;
const FOLDERS_SQL = `select "id", "name", "parent_folder_id", "color" from "folders" where "user_id" = $1 order by lower("name"), "id"`;

type SessionUser = { id: string; name: string; email: string; username: string | null; auth_provider: string; created_at: Date; is_admin: boolean };

async function lookupSession(req: http.IncomingMessage): Promise<SessionUser | null> {
  const token = /(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? "")?.[1];
  if (!token) return null;
  const id = createHash("sha256").update(token).digest("hex");
  const { rows } = await pool.query(SESSION_SQL, [id]);
  const row = rows[0];
  if (!row || Date.now() >= row.expires_at.getTime()) return null;
  const { session_id: _s, kind: _k, expires_at: _e, last_used_at: _l, ...user } = row;
  return user as SessionUser;
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function upload(req: http.IncomingMessage, res: http.ServerResponse): void {
  const parser = busboy({ headers: req.headers, limits: { files: 1, fields: 10, fileSize: 10 * 1024 * 1024 } });
  const writes: Promise<unknown>[] = [];
  parser.on("file", (_name, file) => {
    const target = path.join(uploadDir!, randomUUID());
    // Baseline files are not kept: only the streaming cost is compared.
    writes.push(pipeline(file, fs.createWriteStream(target)).then(() => fs.promises.rm(target)));
  });
  parser.on("close", () => {
    Promise.all(writes).then(
      () => json(res, 201, { success: true }),
      () => json(res, 500, { detail: "upload failed" }),
    );
  });
  parser.on("error", () => json(res, 400, { detail: "bad multipart" }));
  req.pipe(parser);
}

const server = http.createServer((req, res) => {
  const route = `${req.method} ${req.url?.split("?")[0]}`;
  const handle = async () => {
    if (route === "GET /me") {
      const user = await lookupSession(req);
      return user ? json(res, 200, user) : json(res, 401, { detail: "Not authenticated" });
    }
    if (route === "GET /batch") {
      // One session lookup per request, as the app's context does for a whole batch.
      const me = await lookupSession(req);
      if (!me) return json(res, 401, { detail: "Not authenticated" });
      const folders = await pool.query(FOLDERS_SQL, [me.id]);
      return json(res, 200, [{ result: { data: me } }, { result: { data: folders.rows } }]);
    }
    if (route === "POST /upload") return upload(req, res);
    json(res, 404, { detail: "Not found" });
  };
  handle().catch(() => json(res, 500, { detail: "failed" }));
});
server.keepAliveTimeout = 5000;
server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on("disconnect", () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
