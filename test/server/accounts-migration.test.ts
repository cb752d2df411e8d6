// The client accounts migration on a copy of data made before it (issue 32): a database migrated
// up to the migration before, holding two clients' and an admin's rows, then migrated up. Every
// row stays, under the account whose id is its owner's, with its own id unchanged. On Postgres
// with DATABASE_URL, on the embedded database without.
import { randomBytes } from "node:crypto";
import { type Kysely, Migrator, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations } from "../../migrations/index.ts";
import { type DatabaseHandle, openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";
import { adminUrl, dropDatabase } from "../helpers/database.ts";

const BEFORE = "2026-11-26T0010_fresh_proofs";
const MIGRATION = "2026-11-26T0200_client_accounts";
const quiet = createLogger("silent");

let handle: DatabaseHandle;
let dropName: string | undefined;
// The schema changes under the test (before and after the migration), as in a migration: untyped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
let db: AnyDb;

async function migrateTo(target: string): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo(target);
  if (error) throw error;
}

const ids = {
  maria: "11111111-1111-4111-8111-111111111111",
  james: "22222222-2222-4222-8222-222222222222",
  admin: "33333333-3333-4333-8333-333333333333",
};

type Seeded = Record<
  | "adminMessage"
  | "inboxConsultation"
  | "inboxUpload"
  | "jamesAppointment"
  | "jamesDoc"
  | "jamesFolder"
  | "jamesRequest"
  | "jamesTrash"
  | "mariaAppointment"
  | "mariaDoc"
  | "mariaEvent"
  | "mariaFolder"
  | "mariaMessage"
  | "mariaRequest"
  | "mariaShared"
  | "notice"
  | "siteEvent",
  string
>;

async function seedOldData(): Promise<Seeded> {
  await sql`
    insert into users (id, username, email, name, password_hash, is_admin, storage_quota_mb) values
      (${ids.maria}, 'maria', 'maria@example.com', 'Maria Garcia', 'x', false, 250),
      (${ids.james}, 'james', 'james@example.com', '', 'x', false, null),
      (${ids.admin}, 'admin', 'admin@firm.example', 'Ada Admin', 'x', true, null)`.execute(db);
  const row = async (q: ReturnType<typeof sql>) => ((await q.execute(db)).rows[0] as { id: string }).id;
  const r = {} as Seeded;
  r.mariaFolder = await row(sql`insert into folders (user_id, name) values (${ids.maria}, '2025 Taxes') returning id`);
  r.jamesFolder = await row(sql`insert into folders (user_id, name) values (${ids.james}, '2025 Taxes') returning id`);
  r.mariaDoc = await row(sql`
    insert into documents (user_id, folder_id, original_filename, storage_key, content_type, file_size, sha256, uploaded_by)
    values (${ids.maria}, ${r.mariaFolder}, 'W-2.pdf', 'k-maria-1', 'application/pdf', 1200, 'aa', ${ids.maria}) returning id`);
  r.mariaShared = await row(sql`
    insert into documents (user_id, folder_id, original_filename, storage_key, content_type, file_size, sha256, uploaded_by)
    values (${ids.maria}, null, 'Return 2025.pdf', 'k-maria-2', 'application/pdf', 5000, 'bb', ${ids.admin}) returning id`);
  r.jamesDoc = await row(sql`
    insert into documents (user_id, folder_id, original_filename, storage_key, content_type, file_size, sha256)
    values (${ids.james}, null, '1099.pdf', 'k-james-1', 'application/pdf', 800, 'cc') returning id`);
  r.jamesTrash = await row(sql`
    insert into documents (user_id, folder_id, original_filename, storage_key, content_type, file_size, sha256, deleted_at, trashed_from_folder_id)
    values (${ids.james}, null, 'old.pdf', 'k-james-2', 'application/pdf', 100, 'dd', now(), ${r.jamesFolder}) returning id`);
  r.mariaRequest = await row(sql`
    insert into document_requests (user_id, title, created_by, status, submitted_at)
    values (${ids.maria}, 'Your W-2', ${ids.admin}, 'submitted', now()) returning id`);
  r.jamesRequest = await row(
    sql`insert into document_requests (user_id, title, created_by) values (${ids.james}, '1099-INT', ${ids.admin}) returning id`,
  );
  r.mariaAppointment = await row(sql`
    insert into appointments (user_id, title, appointment_date, status) values (${ids.maria}, 'Review', now() + interval '3 days', 'scheduled') returning id`);
  r.jamesAppointment = await row(sql`
    insert into appointments (user_id, title, appointment_date, status) values (${ids.james}, 'Call', now() + interval '4 days', 'requested') returning id`);
  await sql`insert into message_threads (client_id, last_seq, last_message_at) values (${ids.maria}, 2, now())`.execute(db);
  r.mariaMessage = await row(sql`
    insert into messages (client_id, sender_id, sender_role, text, created_at) values (${ids.maria}, null, 'client', 'Hello', now()) returning id`);
  r.adminMessage = await row(sql`
    insert into messages (client_id, sender_id, sender_role, text, created_at) values (${ids.maria}, ${ids.admin}, 'admin', 'Hi Maria', now()) returning id`);
  await sql`insert into message_attachments (message_id, document_id) values (${r.adminMessage}, ${r.mariaShared})`.execute(db);
  r.mariaEvent = await row(sql`
    insert into activity_events (client_id, client_label, actor_id, actor_role, actor_label, action)
    values (${ids.maria}, 'maria', ${ids.maria}, 'client', 'maria', 'document.upload') returning id::text`);
  r.siteEvent = await row(sql`
    insert into activity_events (client_id, actor_id, actor_role, actor_label, action)
    values (null, ${ids.admin}, 'admin', 'admin', 'site.update') returning id::text`);
  r.inboxUpload = await row(sql`
    insert into inbox_items (kind, client_id, subject_id, first_at, last_at) values ('upload', ${ids.maria}, ${r.mariaDoc}, now(), now()) returning id::text`);
  r.inboxConsultation = await row(sql`
    insert into inbox_items (kind, client_id, subject_id, first_at, last_at) values ('consultation', null, 'c1', now(), now()) returning id::text`);
  r.notice = await row(sql`
    insert into upload_notices (user_id, audience, opened_at, due_at) values (${ids.james}, 'firm', now(), now() + interval '10 minutes') returning id`);
  await sql`insert into upload_notice_documents (notice_id, document_id) values (${r.notice}, ${r.jamesDoc})`.execute(db);
  return r;
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
  db = handle.db as unknown as AnyDb;
});

afterAll(async () => {
  await handle?.close();
  if (dropName) await dropDatabase(process.env.DATABASE_URL!, dropName);
});

describe("migration 2026-11-26T0200_client_accounts", () => {
  it("moves every client row under an account of its owner's id, and back down", async () => {
    await migrateTo(BEFORE);
    const r = await seedOldData();
    await migrateTo(MIGRATION);

    const accounts = await db.selectFrom("accounts").select(["id", "name", "kind", "storage_quota_mb"]).orderBy("id").execute();
    // The admin owns client rows of nobody (the shared document is Maria's), so has no account.
    expect(accounts).toEqual([
      { id: ids.maria, name: "Maria Garcia", kind: "individual", storage_quota_mb: 250 },
      { id: ids.james, name: "james", kind: "individual", storage_quota_mb: null },
    ]);
    const contacts = await db
      .selectFrom("account_contacts")
      .select(["account_id", "user_id", "role", "portal_access", "notify"])
      .orderBy("account_id")
      .execute();
    expect(contacts).toEqual([
      { account_id: ids.maria, user_id: ids.maria, role: "owner", portal_access: true, notify: true },
      { account_id: ids.james, user_id: ids.james, role: "owner", portal_access: true, notify: true },
    ]);

    const owned = async (table: string, idColumn = "id") =>
      Object.fromEntries(
        (
          await db
            .selectFrom(table)
            .select([sql<string>`${sql.ref(idColumn)}::text`.as("id"), "account_id"])
            .execute()
        ).map((x) => [x.id, x.account_id]),
      );
    expect(await owned("folders")).toEqual({ [r.mariaFolder]: ids.maria, [r.jamesFolder]: ids.james });
    expect(await owned("documents")).toEqual({
      [r.mariaDoc]: ids.maria,
      [r.mariaShared]: ids.maria,
      [r.jamesDoc]: ids.james,
      [r.jamesTrash]: ids.james,
    });
    expect(await owned("document_requests")).toEqual({ [r.mariaRequest]: ids.maria, [r.jamesRequest]: ids.james });
    expect(await owned("appointments")).toEqual({ [r.mariaAppointment]: ids.maria, [r.jamesAppointment]: ids.james });
    expect(await owned("messages")).toEqual({ [r.mariaMessage]: ids.maria, [r.adminMessage]: ids.maria });
    expect(await owned("message_threads", "account_id")).toEqual({ [ids.maria]: ids.maria });
    expect(await owned("activity_events")).toEqual({ [r.mariaEvent]: ids.maria, [r.siteEvent]: null });
    expect(await owned("inbox_items")).toEqual({ [r.inboxUpload]: ids.maria, [r.inboxConsultation]: null });
    expect(await owned("upload_notices")).toEqual({ [r.notice]: ids.james });

    // What stays beside the account: who uploaded, who wrote (now the client too), trash, links.
    const docs = await db
      .selectFrom("documents")
      .select(["id", "uploaded_by", "deleted_at", "trashed_from_folder_id"])
      .orderBy("storage_key")
      .execute();
    expect(docs.map((d) => d.uploaded_by)).toEqual([null, null, ids.maria, ids.admin]);
    expect(docs[1]!.deleted_at).not.toBeNull();
    expect(docs[1]!.trashed_from_folder_id).toBe(r.jamesFolder);
    const senders = await db.selectFrom("messages").select(["id", "sender_id"]).execute();
    expect(Object.fromEntries(senders.map((m) => [m.id, m.sender_id]))).toEqual({ [r.mariaMessage]: ids.maria, [r.adminMessage]: ids.admin });
    expect(await db.selectFrom("message_attachments").select("document_id").execute()).toEqual([{ document_id: r.mariaShared }]);
    expect(await db.selectFrom("upload_notice_documents").select("document_id").execute()).toEqual([{ document_id: r.jamesDoc }]);
    const requests = await db.selectFrom("document_requests").select(["status", "submitted_by", "created_by"]).orderBy("title", "desc").execute();
    expect(requests).toEqual([
      { status: "submitted", submitted_by: null, created_by: ids.admin },
      { status: "open", submitted_by: null, created_by: ids.admin },
    ]);
    const users = await db.selectFrom("users").select(["id", "is_admin"]).orderBy("id").execute();
    expect(users).toHaveLength(3);
    expect(Object.keys(users[0]!)).not.toContain("storage_quota_mb");

    // The new foreign keys and triggers: removing a contact leaves the account and its data (the
    // firm decides); deleting an account takes its data; deleting the last contact's person takes
    // the account; deleting one of two contacts' person leaves it.
    await db.insertInto("account_contacts").values({ account_id: ids.maria, user_id: ids.james, role: "member" }).execute();
    await db.deleteFrom("account_contacts").where("account_id", "=", ids.james).execute();
    expect(await owned("folders")).toEqual({ [r.mariaFolder]: ids.maria, [r.jamesFolder]: ids.james });
    await db.deleteFrom("accounts").where("id", "=", ids.james).execute();
    expect(await owned("folders")).toEqual({ [r.mariaFolder]: ids.maria });
    expect(await owned("upload_notices")).toEqual({});
    expect(await db.selectFrom("users").select("id").where("id", "=", ids.james).execute()).toHaveLength(1);
    await db.deleteFrom("users").where("id", "=", ids.maria).execute();
    expect(await owned("documents")).toEqual({ [r.mariaDoc]: ids.maria, [r.mariaShared]: ids.maria });
    await db.deleteFrom("users").where("id", "=", ids.james).execute();
    expect(await owned("documents")).toEqual({});
    expect(await db.selectFrom("accounts").select("id").execute()).toEqual([]);

    // Down puts the person columns back (the quota with them) for the accounts that match a person.
    await migrateTo(BEFORE);
    const back = await db.selectFrom("folders").select(["id", "user_id"]).execute();
    expect(back).toEqual([]);
    const cols = await sql<{ column_name: string }>`
      select column_name from information_schema.columns where table_name = 'users' and column_name = 'storage_quota_mb'`.execute(db);
    expect(cols.rows).toHaveLength(1);
    await migrateTo(MIGRATION);
  });
});
