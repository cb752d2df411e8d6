// `npm run create-admin -- --username boss --email boss@firm.com [--name "..."] [--password ...]`
// Values may also come from ADMIN_USERNAME, ADMIN_EMAIL, ADMIN_NAME, ADMIN_PASSWORD. A missing
// password is asked for (hidden) when run in a terminal. An existing user of that username is
// made an admin and gets the new password. The firm types the address here, so it counts as
// verified: for an existing user, only if it is the address the account already has. Admins must
// have a second factor: the first sign-in at /admin sets up an authenticator app before anything else.
// While the firm has no owner, the admin made here becomes its owner (docs/decisions.md, "Staff roles
// and rights (issue 33)"); otherwise an admin. A deactivated person made an admin here is active again.
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { sql, type Transaction } from "kysely";
import { z } from "zod";
import { hashPassword } from "../server/auth/password.ts";
import { invalidateUserSessions } from "../server/auth/session.ts";
import { loadConfig } from "../server/config.ts";
import { migrateToLatest, openDatabase } from "../server/db/database.ts";
import type { Database } from "../server/db/types.ts";
import { createLogger } from "../server/logger.ts";
import { insertUser } from "../server/domains/auth/queries.ts";
import { emailSchema, passwordSchema, usernameSchema } from "../server/domains/auth/schemas.ts";
import { assertPasswordAllowed } from "../server/domains/auth/service.ts";

const { values } = parseArgs({
  options: {
    username: { type: "string" },
    email: { type: "string" },
    name: { type: "string" },
    password: { type: "string" },
  },
});

async function promptHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _enc, cb) {
      if (!muted) process.stdout.write(chunk);
      cb();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write("\n");
      resolve(answer);
    });
    muted = true;
  });
}

const username = values.username ?? process.env.ADMIN_USERNAME;
const email = values.email ?? process.env.ADMIN_EMAIL;
const name = values.name ?? process.env.ADMIN_NAME ?? "Administrator";
let password = values.password ?? process.env.ADMIN_PASSWORD;
if (!password && process.stdin.isTTY) password = await promptHidden("Password for the new admin: ");

const input = z
  .object({ username: usernameSchema, email: emailSchema, name: z.string().trim().min(1), password: passwordSchema })
  .safeParse({ username, email, name, password });
if (!input.success) {
  console.error(
    "Usage: npm run create-admin -- --username NAME --email EMAIL [--name 'Full Name'] [--password PASSWORD]\n" +
      input.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n"),
  );
  process.exit(2);
}
try {
  assertPasswordAllowed(input.data.password);
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}

/**
 * The owner while the firm has none (the first admin made), else what the person is: an owner stays
 * the owner, anyone else becomes an admin. The table is locked so two runs at once make one owner.
 */
async function roleForNewAdmin(trx: Transaction<Database>, userId: string): Promise<"owner" | "admin"> {
  await sql`lock table users in share row exclusive mode`.execute(trx);
  const owner = await trx.selectFrom("users").select("id").where("staff_role", "=", "owner").executeTakeFirst();
  return !owner || owner.id === userId ? "owner" : "admin";
}

const config = loadConfig();
const logger = createLogger("warn");
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
try {
  await migrateToLatest(database.db, logger);
  const passwordHash = await hashPassword(input.data.password);
  const existing = await database.db
    .selectFrom("users")
    .select(["id"])
    .where(sql<string>`lower(username)`, "=", input.data.username.toLowerCase())
    .executeTakeFirst();
  if (existing) {
    await database.db.transaction().execute(async (trx) => {
      const role = await roleForNewAdmin(trx, existing.id);
      await trx
        .updateTable("users")
        .set({ is_admin: true, password_hash: passwordHash, staff_role: role, deactivated_at: null })
        .where("id", "=", existing.id)
        .execute();
      await trx
        .updateTable("users")
        .set({ email_verified_at: sql<Date>`coalesce(email_verified_at, now())` })
        .where("id", "=", existing.id)
        .where(sql<string>`lower(email)`, "=", input.data.email.toLowerCase())
        .execute();
      await invalidateUserSessions(trx, existing.id);
    });
    console.log(`User ${input.data.username} is now an admin with the new password.`);
    console.log("Admins sign in with a second factor: without one, the next sign-in at /admin sets up an authenticator app first.");
  } else {
    const role = await database.db.transaction().execute(async (trx) => {
      const user = await insertUser(trx, {
        username: input.data.username,
        email: input.data.email,
        name: input.data.name,
        password_hash: passwordHash,
        is_admin: true,
        email_verified_at: sql<Date>`now()`,
      });
      const given = await roleForNewAdmin(trx, user.id);
      await trx.updateTable("users").set({ staff_role: given }).where("id", "=", user.id).execute();
      return given;
    });
    console.log(`Admin ${input.data.username} created${role === "owner" ? " as the firm's owner" : ""}. Sign in at ${config.publicUrl}/admin`);
    console.log("The first sign-in sets up two-factor sign-in (an authenticator app) before anything else: do it now, yourself.");
  }
} catch (err) {
  if ((err as { code?: string }).code === "23505") {
    console.error(`The email ${input.data.email} belongs to another account.`);
    process.exit(1);
  }
  throw err;
} finally {
  await database.close();
}
