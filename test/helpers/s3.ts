// A real S3-protocol server (s3rver) on loopback, with one bucket, for tests and the benchmark:
// the app's S3 storage talks to it exactly as it would to AWS or MinIO.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { createS3Client, type S3Settings } from "../../server/storage/s3-storage.ts";

export type TestS3 = {
  endpoint: string;
  bucket: string;
  settings: S3Settings;
  /** The S3_* variables that make the app use this bucket. */
  env: Record<string, string>;
  /** A client of its own, for looking at the bucket from outside the app. */
  client: ReturnType<typeof createS3Client>;
  /** Every request the server received, as "METHOD /path?query", oldest first. */
  requests: string[];
  close: () => Promise<void>;
};

/** s3rver accepts any credentials it was told of; these are its defaults. */
const ACCESS_KEY = "S3RVER";

export async function startTestS3(): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "portal-s3-"));
  const bucket = `documents-${randomBytes(4).toString("hex")}`;
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, vhostBuckets: false, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings: S3Settings = { bucket, endpoint, region: "us-east-1", accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY, forcePathStyle: true };
  const client = createS3Client(settings);
  const requests: string[] = [];
  server.httpServer.on("request", (req: { method?: string; url?: string }) => requests.push(`${req.method} ${req.url}`));
  return {
    endpoint,
    bucket,
    settings,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      S3_FORCE_PATH_STYLE: "true",
    },
    client,
    requests,
    close: async () => {
      client.destroy();
      // Kept-alive connections of the app's client would hold close() open until they time out.
      server.httpServer.closeAllConnections();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
