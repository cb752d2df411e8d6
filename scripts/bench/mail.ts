// The firm's first busy morning: it invites a burst of clients at once, and a client asks for a
// password reset one second into it. The app runs as in production (app-server.ts, its own
// process, the default job settings) against a loopback SMTP server; the figures are how long the
// burst takes to leave and how long the reset waits (docs/performance.md, Mail). The baseline is
// the same number of messages handed straight to that SMTP server over one pooled transport: the
// floor no queue can beat on this machine.
import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import { hashPassword } from "../../server/auth/password.ts";
import { generateTotpKey, sealTotpKey } from "../../server/auth/totp.ts";
import { migrateToLatest, openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";
import { insertUser } from "../../server/domains/auth/queries.ts";
import { startSmtpServer, type TestSmtpServer } from "../../test/helpers/smtp.ts";
import { startChild } from "./processes.ts";
import type { Row } from "./report.ts";

export const BURST_TARGET_MS = 30_000;
export const RESET_TARGET_MS = 10_000;
/** How long a run waits for the burst before calling it lost (the old single queue needed about 204 s). */
const GIVE_UP_MS = 300_000;
const INVITE_CONCURRENCY = 10;

type Login = (appUrl: string, path: "/api/admin/login", username: string, password: string, totpKey: Uint8Array) => Promise<string>;

export type MailBurstOptions = {
  /** "Postgres" or "embedded": names the rows. */
  label: string;
  /** A migrated, empty Postgres database; absent: the embedded database in `work`. */
  databaseUrl?: string;
  work: string;
  invitations: number;
  appPort: number;
  login: Login;
};

export type MailBurstResult = { burstMs: number; resetMs: number; floorMs: number };

/** The floor: `count` messages of an invitation's size straight to the SMTP server, pooled. */
async function directSend(smtp: TestSmtpServer, count: number): Promise<number> {
  const transport = nodemailer.createTransport({ url: smtp.url, pool: true, maxConnections: 5 });
  const before = smtp.messages.length;
  const started = Date.now();
  try {
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        transport.sendMail({
          from: "bench@example.com",
          to: `floor-${i}@example.com`,
          subject: "Floor",
          text: "x".repeat(1500),
          html: "<p>x</p>".repeat(200),
        }),
      ),
    );
    await smtp.waitForMessages(before + count, 60_000);
    return Date.now() - started;
  } finally {
    transport.close();
  }
}

export async function benchMailBurst(opts: MailBurstOptions): Promise<MailBurstResult> {
  const smtp = await startSmtpServer();
  const dataDir = path.join(opts.work, `mail-${opts.label.toLowerCase()}`);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    const floorMs = await directSend(smtp, opts.invitations);

    // The accounts, written before the app starts: the embedded database has one process at a time.
    const quiet = createLogger("silent");
    const handle = await openDatabase({ databaseUrl: opts.databaseUrl, dataDir: opts.databaseUrl ? "memory://" : dataDir, logger: quiet });
    const password = "Bench-Mail-Ledger-42";
    const totpKey = generateTotpKey();
    try {
      if (!opts.databaseUrl) await migrateToLatest(handle.db, quiet);
      const passwordHash = await hashPassword(password);
      const admin = await insertUser(handle.db, {
        username: "bench-mail-admin",
        email: "bench-mail-admin@example.com",
        name: "Bench Admin",
        password_hash: passwordHash,
        is_admin: true,
      });
      await handle.db
        .insertInto("totp_credentials")
        .values({ user_id: admin.id, secret: sealTotpKey(totpKey, null), enabled_at: new Date() })
        .execute();
      await insertUser(handle.db, {
        username: "bench-mail-client",
        email: "bench-mail-client@example.com",
        name: "Bench Client",
        password_hash: passwordHash,
        is_admin: false,
      });
    } finally {
      await handle.close();
    }

    const appUrl = `http://127.0.0.1:${opts.appPort}`;
    const app = await startChild(
      "app-server.ts",
      {
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(opts.appPort),
        PUBLIC_URL: appUrl,
        DATABASE_URL: opts.databaseUrl ?? "",
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        SMTP_URL: smtp.url,
        BENCH_CLIENT_DIR: path.join(opts.work, "no-client"),
      },
      path.join(opts.work, `app-mail-${opts.label.toLowerCase()}.log`),
    );
    try {
      const token = await opts.login(appUrl, "/api/admin/login", "bench-mail-admin", password, totpKey);
      const post = async (to: string, body: unknown, cookie?: string) => {
        const res = await fetch(appUrl + to, {
          method: "POST",
          headers: { "content-type": "application/json", origin: appUrl, ...(cookie ? { cookie } : {}) },
          body: JSON.stringify(body),
        });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${to}: ${res.status}`);
      };
      const isInvitation = (s: string) => /invitation/i.test(s);
      const isReset = (s: string) => /reset/i.test(s);
      const before = smtp.messages.length;

      const started = Date.now();
      let next = 0;
      const invite = async () => {
        while (next < opts.invitations) {
          const i = next++;
          await post("/api/admin/invitations", { name: `Invitee ${i}`, email: `invitee-${i}@example.com` }, `session=${token}`);
        }
      };
      const inviting = Promise.all(Array.from({ length: INVITE_CONCURRENCY }, invite));
      const resetAsked = new Promise<number>((resolve, reject) => {
        setTimeout(() => {
          const at = Date.now();
          post("/api/auth/forgot-password", { email: "bench-mail-client@example.com" }).then(() => resolve(at), reject);
        }, 1000);
      });
      // Awaited below; handled now too, so that when the burst fails first, the reset's own failure
      // (the app stopped under it) is not an unhandled rejection that ends the whole bench run.
      resetAsked.catch(() => undefined);
      await inviting;

      let burstDoneAt = 0;
      let resetAt = 0;
      while (!burstDoneAt || !resetAt) {
        if (Date.now() - started > GIVE_UP_MS) throw new Error(`mail burst not out after ${GIVE_UP_MS / 1000} s`);
        const arrived = smtp.messages.slice(before);
        if (!burstDoneAt && arrived.filter((m) => isInvitation(m.subject)).length >= opts.invitations) burstDoneAt = Date.now();
        if (!resetAt && arrived.some((m) => isReset(m.subject))) resetAt = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { burstMs: burstDoneAt - started, resetMs: resetAt - (await resetAsked), floorMs };
    } finally {
      await app.stop();
    }
  } finally {
    await smtp.stop();
  }
}

export function mailRows(label: string, invitations: number, r: MailBurstResult): Row[] {
  const s = (v: number) => `${(v / 1000).toFixed(1)} s`;
  return [
    {
      benchmark: `Mail: burst of ${invitations} invitations all out (${label})`,
      measured: s(r.burstMs),
      baseline: `${s(r.floorMs)} (straight to SMTP)`,
      ratio: `${(r.burstMs / r.floorMs).toFixed(1)}x`,
      target: `<= ${BURST_TARGET_MS / 1000} s`,
      result: r.burstMs <= BURST_TARGET_MS ? "ok" : "MISS",
    },
    {
      benchmark: `Mail: password reset asked 1 s into the burst, arrives (${label})`,
      measured: s(r.resetMs),
      baseline: "",
      ratio: "",
      target: `<= ${RESET_TARGET_MS / 1000} s`,
      result: r.resetMs <= RESET_TARGET_MS ? "ok" : "MISS",
    },
  ];
}
