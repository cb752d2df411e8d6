// A database pg-boss 10 left, with jobs still waiting, started by the app on pg-boss 12: the waiting
// mail arrives once, a job that was under way and had already sent its mail sends nothing again,
// pg-boss 10's schema is gone, and so is a job of a queue the app no longer has (logged). Postgres or
// the embedded database.
import fs from "node:fs";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/database.ts";
import { createUser } from "../helpers/factories.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";

const PGBOSS_10_SCHEMA = fs.readFileSync(new URL("../fixtures/pgboss-10-schema.sql", import.meta.url), "utf8");
const WAITING = "7a0e3c52-5d1f-4b8e-9a61-0c2f3e4d5a01";
const UNDER_WAY = "7a0e3c52-5d1f-4b8e-9a61-0c2f3e4d5a02";
const GONE = "7a0e3c52-5d1f-4b8e-9a61-0c2f3e4d5a03";

describe("a database left by pg-boss 10", () => {
  let server: TestServer;
  let smtp: TestSmtpServer;
  let alice: { id: string; email: string };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const database = await createTestDatabase();
    alice = await createUser(database.db);
    const bob = await createUser(database.db);
    await database.runScript(PGBOSS_10_SCHEMA);
    // As pg-boss 10's send() wrote them: the mail queues of then, with a reset asked before the upgrade,
    // one whose message went out before the instance stopped, and a job of a kind since removed.
    await database.runScript(`
      select pgboss.create_queue('email-gave-up', '{"policy": "standard"}');
      select pgboss.create_queue('email', '{"policy": "standard", "deadLetter": "email-gave-up"}');
      select pgboss.create_queue('retired-kind', '{"policy": "standard"}');
      insert into pgboss.job (id, name, data, retry_limit, retry_delay, retry_backoff, dead_letter)
        values ('${WAITING}', 'email', '{"kind": "password-reset", "userId": "${alice.id}"}', 12, 30, true, 'email-gave-up');
      insert into pgboss.job (id, name, data, state, retry_limit, retry_delay, retry_backoff, started_on, dead_letter)
        values ('${UNDER_WAY}', 'email', '{"kind": "password-reset", "userId": "${bob.id}"}', 'active', 12, 30, true, now(), 'email-gave-up');
      insert into pgboss.job (id, name, data) values ('${GONE}', 'retired-kind', '{}');
    `);
    await database.db.insertInto("sent_mail").values({ job_id: UNDER_WAY, kind: "password-reset", sent_at: new Date() }).execute();
    server = await startTestServer({ database, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  it("sends the mail that waited, once, and keeps nothing of pg-boss 10", async () => {
    const state = async (id: string) => (await server.deps.jobs.boss.findJobs("email", { id }))[0]?.state;
    await expect.poll(() => state(WAITING), { timeout: 15_000 }).toBe("completed");
    await expect.poll(() => state(UNDER_WAY), { timeout: 15_000 }).toBe("completed");
    expect(smtp.messages.map((m) => m.to[0])).toEqual([alice.email]);
    expect(smtp.messages[0]!.headers["message-id"]).toContain(WAITING);

    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_namespace where nspname like 'pgboss%'`.execute(server.db);
    expect(rows[0]!.n).toBe(1);
    expect(Number(await server.deps.jobs.boss.schemaVersion())).toBeGreaterThan(24);
    const moved = server.logs.map((l) => JSON.parse(l) as { msg?: string; carried?: object; dropped?: object }).find((e) => e.msg?.includes("moved"));
    expect(moved).toMatchObject({ carried: { email: 2 }, dropped: { "retired-kind": 1 } });
  });
});
