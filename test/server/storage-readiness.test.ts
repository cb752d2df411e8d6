// GET /api/ready: what a load balancer asks before sending an instance traffic. It says ready only
// while both the database and the document storage answer; /api/health stays the liveness check.
import { afterEach, expect, it } from "vitest";
import { openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";
import { ApiClient } from "../helpers/http.ts";
import { startTestS3 } from "../helpers/s3.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function serve(...args: Parameters<typeof startTestServer>): Promise<{ server: TestServer; anon: ApiClient }> {
  const server = await startTestServer(...args);
  cleanup.push(() => server.close());
  return { server, anon: new ApiClient(server.url) };
}

it("is ready on the local directory", async () => {
  const { anon } = await serve();
  const res = await anon.get("/api/ready");
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ status: "ready" });
});

it("is ready on S3 while the bucket answers, and answers 503 once it does not, while still alive", async () => {
  const s3 = await startTestS3();
  let s3Running = true;
  cleanup.push(async () => {
    if (s3Running) await s3.close();
  });
  const { anon } = await serve({ env: s3.env });
  expect((await anon.get("/api/ready")).body).toEqual({ status: "ready" });

  await s3.close();
  s3Running = false;
  const res = await anon.get("/api/ready");
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ detail: "Not ready: the document storage did not answer." });
  expect((await anon.get("/api/health")).status).toBe(200);
});

it("answers 503 when the database does not answer", async () => {
  // The app's queries go to a Postgres that nothing serves (port 1 refuses every connection).
  const unreachable = await openDatabase({
    databaseUrl: "postgres://postgres@127.0.0.1:1/nowhere",
    dataDir: "memory://",
    logger: createLogger("silent"),
  });
  cleanup.push(() => unreachable.close());
  const { anon } = await serve({ overrides: { db: unreachable.db } });
  const res = await anon.get("/api/ready");
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ detail: "Not ready: the database did not answer." });
});
