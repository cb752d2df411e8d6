// Migration 2026-12-07T0210_staff_have_no_client_account (issue 47, item 7) on data made before it:
// the empty client accounts that accepted staff invitations made go; every account that holds
// anything, or has a client among its people, or has no people at all, stays exactly as it was. Down
// gives an individual account back to each person who joined by a staff invitation and has none.
// On Postgres with DATABASE_URL, on the embedded database without.
import { randomBytes, randomUUID } from "node:crypto";
import { type Kysely, Migrator, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations } from "../../migrations/index.ts";
import { type DatabaseHandle, openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";
import { adminUrl, dropDatabase } from "../helpers/database.ts";

const BEFORE = "2026-12-07T0200_signed_records_outlive_deletion";
const MIGRATION = "2026-12-07T0210_staff_have_no_client_account";
const quiet = createLogger("silent");

let handle: DatabaseHandle;
let dropName: string | undefined;
// The schema as it is at the migration, as in a migration: untyped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let db: Kysely<any>;

async function migrateTo(target: string): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo(target);
  if (error) throw error;
}

beforeAll(async () => {
  const base = process.env.DATABASE_URL;
  if (base) {
    dropName = `portal_migration_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl(base) });
    await admin.connect();
    try {
      await admin.query(`create database ${dropName}`);
    } finally {
      await admin.end();
    }
    handle = await openDatabase({ databaseUrl: adminUrl(base, dropName), dataDir: "memory://", logger: quiet });
  } else {
    handle = await openDatabase({ dataDir: "memory://", logger: quiet });
  }
  db = handle.db as unknown as Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
});

afterAll(async () => {
  await handle?.close();
  if (dropName) await dropDatabase(process.env.DATABASE_URL!, dropName);
});

/** A person; `invitedAsStaff`: joined by an accepted staff invitation, as the Team tab's people do. */
async function person(name: string, opts: { admin: boolean; invitedAsStaff?: boolean }): Promise<string> {
  const id = randomUUID();
  const username = name.toLowerCase().replace(/\W+/g, "_");
  await sql`
    insert into users (id, username, email, name, password_hash, is_admin, staff_role)
    values (${id}, ${username}, ${`${username}@example.com`}, ${name}, 'x', ${opts.admin}, ${opts.admin ? "staff" : null})`.execute(db);
  if (opts.invitedAsStaff) {
    await sql`
      insert into invitations (name, email, created_at, expires_at, accepted_at, accepted_user_id, staff_role)
      values (${name}, ${`${username}@example.com`}, now(), now() + interval '7 days', now(), ${id}, 'staff')`.execute(db);
  }
  return id;
}

/** An individual account named `name` with these people as its contacts (the first its owner). */
async function account(name: string, people: string[]): Promise<string> {
  const id = randomUUID();
  await sql`insert into accounts (id, name, kind) values (${id}, ${name}, 'individual')`.execute(db);
  for (const [i, userId] of people.entries()) {
    await sql`insert into account_contacts (account_id, user_id, role) values (${id}, ${userId}, ${i === 0 ? "owner" : "member"})`.execute(db);
  }
  return id;
}

const accountIds = async () => (await sql<{ id: string }>`select id from accounts order by id`.execute(db)).rows.map((r) => r.id).sort();

describe(`migration ${MIGRATION}`, () => {
  it("removes only the empty accounts of the firm's people, and gives them back on the way down", async () => {
    await migrateTo(BEFORE);
    const empty = await person("Stella Staff", { admin: true, invitedAsStaff: true });
    const emptyAccount = await account("Stella Staff", [empty]);
    const session = randomUUID();
    await sql`insert into sessions (id, user_id, kind, expires_at, account_id) values (${session}, ${empty}, 'client', now() + interval '1 day', ${emptyAccount})`.execute(
      db,
    );

    const kept: Record<string, string> = {};
    const withDocument = await person("Dana Documents", { admin: true, invitedAsStaff: true });
    kept.document = await account("Dana Documents", [withDocument]);
    await sql`
      insert into documents (account_id, original_filename, storage_key, content_type, file_size, sha256)
      values (${kept.document}, 'mine.pdf', 'k-dana', 'application/pdf', 10, 'aa')`.execute(db);
    const withFolder = await person("Fred Folders", { admin: true, invitedAsStaff: true });
    kept.folder = await account("Fred Folders", [withFolder]);
    await sql`insert into folders (account_id, name) values (${kept.folder}, '2025')`.execute(db);
    const withMessages = await person("Mia Messages", { admin: true, invitedAsStaff: true });
    kept.messages = await account("Mia Messages", [withMessages]);
    await sql`insert into message_threads (account_id, last_seq, last_message_at) values (${kept.messages}, 1, now())`.execute(db);
    await sql`insert into messages (account_id, sender_role, text, created_at) values (${kept.messages}, 'client', 'Hello', now())`.execute(db);
    const withNote = await person("Nate Noted", { admin: true, invitedAsStaff: true });
    kept.note = await account("Nate Noted", [withNote]);
    await sql`insert into account_notes (account_id, body) values (${kept.note}, 'Kept for a reason')`.execute(db);
    const withInvitee = await person("Ivy Inviter", { admin: true, invitedAsStaff: true });
    kept.invitation = await account("Ivy Inviter", [withInvitee]);
    await sql`
      insert into invitations (name, email, created_at, expires_at, account_id, role)
      values ('Guest', 'guest@example.com', now(), now() + interval '7 days', ${kept.invitation}, 'member')`.execute(db);
    const client = await person("Carl Client", { admin: false });
    kept.client = await account("Carl Client", [client]);
    const sharing = await person("Sam Sharing", { admin: true, invitedAsStaff: true });
    kept.shared = await account("Household", [await person("Hana Household", { admin: false }), sharing]);
    kept.nobody = await account("Nobody yet", []);
    const before = await accountIds();

    await migrateTo(MIGRATION);
    expect(await accountIds()).toEqual(before.filter((id) => id !== emptyAccount));
    for (const id of Object.values(kept)) expect((await accountIds()).includes(id), id).toBe(true);
    // Every other account keeps its people and data.
    expect((await sql`select 1 from documents where account_id = ${kept.document}`.execute(db)).rows).toHaveLength(1);
    expect((await sql`select 1 from account_contacts where account_id = ${kept.shared}`.execute(db)).rows).toHaveLength(2);
    expect((await sql`select 1 from messages where account_id = ${kept.messages}`.execute(db)).rows).toHaveLength(1);
    // The person stays; the session that had the account open no longer names it.
    expect((await sql`select 1 from users where id = ${empty}`.execute(db)).rows).toHaveLength(1);
    expect((await sql<{ account_id: string | null }>`select account_id from sessions where id = ${session}`.execute(db)).rows).toEqual([
      { account_id: null },
    ]);

    await migrateTo(BEFORE);
    const back = await sql<{ name: string; kind: string; role: string }>`
      select a.name, a.kind, c.role from account_contacts c join accounts a on a.id = c.account_id where c.user_id = ${empty}`.execute(db);
    expect(back.rows).toEqual([{ name: "Stella Staff", kind: "individual", role: "owner" }]);
    expect((await accountIds()).length).toBe(before.length);
    // Nobody else got a second account.
    expect((await sql`select 1 from account_contacts where user_id = ${withDocument}`.execute(db)).rows).toHaveLength(1);
  });
});
