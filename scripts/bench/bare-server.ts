// The bare baseline: a node:http server doing the app's work without any framework (the session
// lookup and folder listing of baseline-session.ts), and busboy streaming uploads to disk the way
// our local storage stores them: written, fsynced before close (`flush`), then the directory synced.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { listFolders, lookupSession, serveForBench } from "./baseline-session.ts";

const uploadDir = process.env.BENCH_UPLOAD_DIR;
if (!uploadDir) throw new Error("BENCH_UPLOAD_DIR is required");
fs.mkdirSync(uploadDir, { recursive: true });

function json(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function storeDurably(file: NodeJS.ReadableStream): Promise<void> {
  const target = path.join(uploadDir!, randomUUID());
  await pipeline(file, fs.createWriteStream(target, { flush: true }));
  const dir = await fs.promises.open(uploadDir!, "r");
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
  // Baseline files are not kept: only the cost of storing them is compared.
  await fs.promises.rm(target);
}

function upload(req: http.IncomingMessage, res: http.ServerResponse): void {
  const parser = busboy({ headers: req.headers, limits: { files: 1, fields: 10, fileSize: 10 * 1024 * 1024 } });
  const writes: Promise<unknown>[] = [];
  parser.on("file", (_name, file) => writes.push(storeDurably(file)));
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
      const user = await lookupSession(req.headers.cookie);
      return user ? json(res, 200, user) : json(res, 401, { detail: "Not authenticated" });
    }
    if (route === "GET /batch") {
      // One session lookup per request, as the app's context does for a whole batch.
      const me = await lookupSession(req.headers.cookie);
      if (!me) return json(res, 401, { detail: "Not authenticated" });
      return json(res, 200, [{ result: { data: me } }, { result: { data: await listFolders(me.id) } }]);
    }
    if (route === "POST /upload") return upload(req, res);
    json(res, 404, { detail: "Not found" });
  };
  handle().catch(() => json(res, 500, { detail: "failed" }));
});
server.keepAliveTimeout = 5000;
server.listen(0, "127.0.0.1", () => serveForBench(server));
