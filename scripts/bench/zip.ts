// The ZIP download benchmark (issue 17): a folder of `files` × 10 MB downloaded as one ZIP, and the
// serving app's peak resident memory while it streams, against a plain download of one of those
// files in the same run. A ZIP built on the fly must not grow with the folder. The files go up
// through one app and are downloaded from a fresh one on the same database and files, whose heap
// the uploads did not grow: memory they left free could hide a ZIP held in memory.
import { randomBytes } from "node:crypto";
import { hashPassword } from "../../server/auth/password.ts";
import { openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";
import { insertUser } from "../../server/domains/auth/queries.ts";
import { type ChildServer, peakRssDuring } from "./processes.ts";
import type { Row } from "./report.ts";
import { giveOwnAccount } from "./database.ts";

const FILE_BYTES = 10_000_000;
const MB = 1024 * 1024;
/** The end-of-central-directory signature, in the last bytes of every complete ZIP. */
const END_OF_ZIP = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

async function post(url: string, path: string, headers: Record<string, string>, body: BodyInit): Promise<{ id?: string; session_token?: string }> {
  const res = await fetch(url + path, { method: "POST", headers: { origin: url, ...headers }, body });
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { id?: string; session_token?: string };
}

/** Reads a whole answer, keeping only its size and its last bytes. */
async function drain(url: string, cookie: string): Promise<{ bytes: number; tail: Buffer; seconds: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { cookie } });
  if (!res.ok || !res.body) throw new Error(`GET ${url} answered ${res.status}`);
  let bytes = 0;
  let tail = Buffer.alloc(0);
  for await (const chunk of res.body) {
    bytes += chunk.length;
    tail = Buffer.concat([tail, chunk]).subarray(-64);
  }
  return { bytes, tail, seconds: (performance.now() - started) / 1000 };
}

/**
 * A client of its own (uploads are limited per client and hour, and the upload benchmark used
 * them), a folder of `files` random 10 MB files, then the two measured downloads.
 */
export async function benchZipDownload(opts: { databaseUrl: string; upload: ChildServer; serve: ChildServer; files: number }): Promise<Row> {
  const { upload: app, serve, files } = opts;
  const password = `Bench-${randomBytes(12).toString("hex")}`;
  const handle = await openDatabase({ databaseUrl: opts.databaseUrl, dataDir: "memory://", logger: createLogger("silent") });
  try {
    await giveOwnAccount(
      handle.db,
      await insertUser(handle.db, {
        username: "bench-zip",
        email: "bench-zip@example.com",
        name: "Bench ZIP",
        password_hash: await hashPassword(password),
        is_admin: false,
      }),
    );
  } finally {
    await handle.close();
  }
  const json = { "content-type": "application/json" };
  const { session_token: token } = await post(
    app.url,
    "/api/auth/login",
    json,
    JSON.stringify({ username: "bench-zip", password, return_token: true }),
  );
  const cookie = `session=${token}`;
  const { id: folderId } = await post(app.url, "/api/folders", { ...json, cookie }, JSON.stringify({ name: "Tax season" }));
  const documentIds: string[] = [];
  for (let i = 0; i < files; i++) {
    const form = new FormData();
    form.append("folder_id", folderId!);
    form.append("file", new Blob([randomBytes(FILE_BYTES)]), `statement-${i + 1}.pdf`);
    documentIds.push((await post(app.url, "/api/documents/upload", { cookie }, form)).id!);
  }

  // Warm the download path once, so the baseline does not pay for first-time code loading.
  await drain(`${serve.url}/api/documents/${documentIds[0]}/download`, cookie);
  const single = await peakRssDuring(serve.pid, () => drain(`${serve.url}/api/documents/${documentIds[0]}/download`, cookie));
  const zip = await peakRssDuring(serve.pid, () => drain(`${serve.url}/api/folders/${folderId}/download`, cookie));
  if (zip.result.bytes < files * FILE_BYTES || zip.result.tail.lastIndexOf(END_OF_ZIP) < 0) {
    throw new Error(`the ZIP was incomplete: ${zip.result.bytes} bytes`);
  }
  const zipGrowth = (zip.peak - zip.idle) / MB;
  const singleGrowth = (single.peak - single.idle) / MB;
  const folderMb = (files * FILE_BYTES) / 1e6;
  const limit = 32;
  return {
    benchmark: `ZIP of a ${folderMb.toFixed(0)} MB folder (${files} × 10 MB), streamed: peak RSS growth`,
    measured: `${zipGrowth.toFixed(1)} MB (${(zip.result.bytes / 1e6 / zip.result.seconds).toFixed(0)} MB/s)`,
    baseline: `${singleGrowth.toFixed(1)} MB for a plain 10 MB download; idle ${(zip.idle / MB).toFixed(0)} MB, peak ${(zip.peak / MB).toFixed(0)} MB`,
    ratio: `${zipGrowth - singleGrowth >= 0 ? "+" : ""}${(zipGrowth - singleGrowth).toFixed(1)} MB`,
    target: `< ${limit} MB (flat, not the folder's size)`,
    result: zipGrowth < limit ? "ok" : "MISS",
  };
}
