// `npm run bench -- --smoke` in CI: every benchmark runs for about a second, so a change that breaks
// a bench script (a renamed path, a changed response, a failing request) fails here, not weeks later.
// It needs the Postgres service (the bench creates and drops a database of its own there). Its
// limit leaves room for the mail burst rows on a machine busy with the rest of the suite.
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function runSmoke(): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "scripts/bench/run.ts", "--smoke"],
      // The client this test run built (global-setup-client.ts): a fresh clone has no dist/client.
      { cwd: repoRoot, env: { ...process.env, BENCH_CLIENT_DIR: inject("clientDir") }, maxBuffer: 10 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(!process.env.DATABASE_URL)("bench smoke", () => {
  it("runs every benchmark and prints the table without a failed request", { timeout: 240_000 }, async () => {
    const { code, stdout, stderr } = await runSmoke();
    expect(stdout, stderr).not.toContain("Problems:");
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toContain("| Benchmark | Measured | Baseline (same run) | Ratio | Target | Result |");
    for (const row of [
      "GET /api/auth/me: throughput",
      "GET /api/auth/me: p99 at",
      "tRPC batch auth.me + folders.list: throughput",
      "logins/s",
      "Upload 10 MB, 8 at a time: throughput",
      "Upload: peak RSS growth per concurrent upload",
      "ZIP of a 30 MB folder (3 × 10 MB), streamed: peak RSS growth",
      "Encryption at rest, local disk: HTTP upload 10 MB, 8 at a time",
      "Encryption at rest, S3: HTTP download 10 MB, 8 at a time",
      "Encryption at rest, S3: peak RSS growth per concurrent upload",
      "Encryption at rest, local disk: the app's CPU per MB downloaded",
      "Mail: burst of 10 invitations all out (Postgres)",
      "Mail: password reset asked 1 s into the burst, arrives (Postgres)",
      "GET /api/folders (client's folders), p50",
      "GET /api/admin/documents (first page of 50), p50",
      "GET /api/documents/search?q= (by content), p50",
      "Landing page initial JS (gzip)",
      "Lighthouse",
    ]) {
      expect(stdout).toContain(row);
    }
    expect(stdout).not.toMatch(/\| error \|$/m);
    expect(stdout).toContain("admin.documents.list:");
  });
});
