// The bench's own database on the Postgres service: created with a random name, dropped at the end.
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import pg from "pg";
import type { Database } from "../../server/db/types.ts";
import { migrateToLatest, openDatabase } from "../../server/db/database.ts";
import { createLogger } from "../../server/logger.ts";

export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer(base: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl(base, "postgres") });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

export async function createBenchDatabase(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `portal_bench_${randomBytes(6).toString("hex")}`;
  await onServer(base, `create database ${name}`);
  const url = databaseUrl(base, name);
  const quiet = createLogger("silent");
  const handle = await openDatabase({ databaseUrl: url, dataDir: "memory://", logger: quiet });
  try {
    await migrateToLatest(handle.db, quiet);
  } finally {
    await handle.close();
  }
  return { url, drop: () => onServer(base, `drop database if exists ${name} with (force)`) };
}

/**
 * An individual account for a client the bench inserted directly, under the person's own id, as
 * registration gives one and the accounts migration kept existing clients': the client paths act on it.
 */
export async function giveOwnAccount(db: Kysely<Database>, user: { id: string; username: string | null }): Promise<void> {
  await db
    .insertInto("accounts")
    .values({ id: user.id, name: user.username ?? user.id, kind: "individual" })
    .execute();
  await db.insertInto("account_contacts").values({ account_id: user.id, user_id: user.id, role: "owner" }).execute();
}

export type ScaleSize = { users: number; documents: number; clientFolders: number; clientDocuments: number; clientRequests: number };

export const SMALL_SCALE: ScaleSize = { users: 100, documents: 1_000, clientFolders: 10, clientDocuments: 100, clientRequests: 5 };
export const FULL_SCALE: ScaleSize = { users: 100_000, documents: 1_000_000, clientFolders: 1_000, clientDocuments: 10_000, clientRequests: 50 };
/** Activity events seeded per document: the trail grows with what clients do with their documents. */
const ACTIVITY_PER_DOCUMENT = 10;
export const SMOKE_SCALE: ScaleSize = { users: 1_000, documents: 5_000, clientFolders: 50, clientDocuments: 500, clientRequests: 10 };

/**
 * Every seeded document's extracted text (content search, issue 34), as the text job would have
 * left it: one in fifty is a tax return ("income tax return" finds 2% of a client's documents, 200
 * of the client's 10,000 at full scale), the rest bank statements; the words vary with `i`.
 */
const SEEDED_TEXT = `to_tsvector('english'::regconfig, case when i % 50 = 0
  then 'Form 1040 U.S. Individual Income Tax Return for the year ' || (2000 + i % 25) || ' taxpayer ' || i
  else 'Monthly statement of account ' || i || ' opening balance closing balance deposits withdrawals' end)`;

/**
 * Grows the install to `size` in a few set-based statements: `clientId` gets folders up to
 * clientFolders, each holding clientDocuments / clientFolders documents; new users (no password,
 * they never log in) get one folder each and the remaining documents spread over them, half of
 * them in that folder; and the activity trail gets ten events per document. `batch` keeps the
 * generated names of successive calls apart.
 */
export async function seedScale(url: string, clientId: string, size: ScaleSize, batch: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const count = async (sql: string, params: unknown[] = []) => Number((await client.query(sql, params)).rows[0].n);
  try {
    const newUsers = size.users - (await count("select count(*) as n from users"));
    const newClientFolders = size.clientFolders - (await count("select count(*) as n from folders where account_id = $1", [clientId]));
    const perFolder = Math.round(size.clientDocuments / size.clientFolders);
    const newOtherDocuments = size.documents - (await count("select count(*) as n from documents")) - newClientFolders * perFolder;
    const prefix = `gen${batch}-`;
    await client.query(
      `insert into users (username, email, name, created_at)
       select $2 || i, $2 || i || '@example.com', 'Generated User ' || i, now() - make_interval(mins => i)
       from generate_series(1, $1::int) as i`,
      [newUsers, prefix],
    );
    // Each new person has an individual account of their own, as registration gives one, under the
    // same id (as the accounts migration kept it): 100,000 accounts at full scale.
    await client.query(
      `insert into accounts (id, name, kind, created_at)
       select id, username, 'individual', created_at from users where username like $1 || '%'`,
      [prefix],
    );
    await client.query(
      `insert into account_contacts (account_id, user_id, role, created_at)
       select id, id, 'owner', created_at from users where username like $1 || '%'`,
      [prefix],
    );
    await client.query(
      `insert into folders (account_id, name, color, created_at)
       select $1, 'Folder ' || $3 || lpad(i::text, 5, '0'), '#3B82F6', now() - make_interval(mins => i)
       from generate_series(1, $2::int) as i`,
      [clientId, newClientFolders, prefix],
    );
    await client.query(
      `insert into documents (account_id, folder_id, original_filename, storage_key, content_type, file_size, sha256, upload_date,
                              content_vector, text_extracted_at)
       select $1, f.id, 'statement-' || i || '.pdf', gen_random_uuid()::text, 'application/pdf', 1000 + i, md5(i::text),
              now() - make_interval(secs => i), ${SEEDED_TEXT}, now()
       from folders f, generate_series(1, $2::int) as i
       where f.account_id = $1 and f.name like 'Folder ' || $3 || '%'`,
      [clientId, perFolder, prefix],
    );
    await client.query(
      `insert into folders (account_id, name, created_at)
       select id, 'Taxes', created_at from users where username like $1 || '%'`,
      [prefix],
    );
    await client.query(
      `with f as (
         select f.id, f.account_id, f.created_at, row_number() over (order by f.id) as n
         from folders f join users u on u.id = f.account_id
         where u.username like $3 || '%'
       )
       insert into documents (account_id, folder_id, original_filename, storage_key, content_type, file_size, sha256, upload_date,
                              content_vector, text_extracted_at)
       select f.account_id, case when i % 2 = 0 then f.id end, 'receipt-' || i || '.pdf', gen_random_uuid()::text,
              'application/pdf', 2000 + i % 100000, md5(i::text), f.created_at + make_interval(secs => i % 86400), ${SEEDED_TEXT}, now()
       from generate_series(1, $1::int) as i join f on f.n = i % $2::int + 1`,
      [newOtherDocuments, newUsers, prefix],
    );
    // Two in a hundred documents of this batch in the trash (the client's and everyone's), deleted
    // over the last 30 days, as the trash keeps them.
    await client.query(
      `update documents set deleted_at = now() - make_interval(hours => file_size % 720), trashed_from_folder_id = folder_id, folder_id = null
       where deleted_at is null and file_size % 50 = 0 and (original_filename like 'statement-%' or account_id in (select id from users where username like $1 || '%'))`,
      [prefix],
    );
    // Ten activity events per document (10 million at full scale), spread over the documents'
    // owners and the last months, in the mix a busy portal records: mostly views and downloads.
    await client.query(
      `insert into activity_events (occurred_at, account_id, client_label, actor_id, actor_role, actor_label, action, target_type, target_id, detail)
       select d.upload_date + make_interval(mins => k * 97), d.account_id, u.username, d.account_id, 'client', u.username,
              (array['document.upload', 'document.preview', 'document.download', 'document.rename', 'document.move',
                     'document.preview', 'document.download', 'auth.sign_in', 'document.preview', 'document.trash'])[k],
              'document', d.id::text, jsonb_build_object('filename', d.original_filename)
       from (select id, account_id, upload_date, original_filename from documents
             limit greatest($1::bigint - (select count(*) from activity_events) / ${ACTIVITY_PER_DOCUMENT}, 0)) d
       join users u on u.id = d.account_id
       cross join generate_series(1, ${ACTIVITY_PER_DOCUMENT}) as k`,
      [size.documents],
    );
    // Every new account's requests, appointments and conversation: one request, one appointment and
    // three messages each (300,000 messages at full scale); the client's own lists hold a season's
    // worth (clientRequests of each, ten messages per request).
    await seedAccountLists(client, clientId, size, prefix);
    // A steady-state install has been vacuumed and analyzed by autovacuum; a fresh bulk load not yet.
    await client.query("vacuum analyze");
  } finally {
    await client.end();
  }
}

/** The request, appointment and messages lists of the accounts `seedScale` just made, and more of the client's own. */
async function seedAccountLists(client: pg.Client, clientId: string, size: ScaleSize, prefix: string): Promise<void> {
  const extra = Math.max(
    size.clientRequests - Number((await client.query("select count(*) as n from document_requests where account_id = $1", [clientId])).rows[0].n),
    0,
  );
  await client.query(
    `insert into document_requests (account_id, title, created_at, updated_at)
     select id, 'W-2 forms', created_at, created_at from users where username like $1 || '%'
     union all
     select $2, 'Request ' || $1 || i, now() - make_interval(days => i), now() - make_interval(days => i) from generate_series(1, $3::int) as i`,
    [prefix, clientId, extra],
  );
  // None is scheduled: a scheduled one ahead would have the reminder sweep mail it while the rows
  // are measured. The accounts' are past and completed; the client's half past, half requested.
  await client.query(
    `insert into appointments (account_id, title, description, appointment_date, status, created_at, updated_at)
     select id, 'Review', '', created_at - interval '30 days', 'completed', created_at, created_at from users where username like $1 || '%'
     union all
     select $2, 'Review ' || i, '', now() + make_interval(days => i - $3::int / 2),
            case when i <= $3::int / 2 then 'completed' else 'requested' end, now(), now()
     from generate_series(1, $3::int) as i`,
    [prefix, clientId, extra],
  );
  await client.query(
    `insert into message_threads (account_id, last_message_at)
     select id, created_at from accounts where name like $1 || '%' or id = $2
     on conflict (account_id) do nothing`,
    [prefix, clientId],
  );
  await client.query(
    `insert into messages (account_id, sender_id, sender_role, text, created_at)
     select a.id, case when k = 2 then a.id end, case when k = 2 then 'client' else 'admin' end, 'Message ' || k, a.created_at + make_interval(hours => k)
     from accounts a cross join generate_series(1, 3) as k where a.name like $1 || '%'
     union all
     select $2, null, 'admin', 'Message ' || $1 || i, now() - make_interval(hours => i) from generate_series(1, $3::int * 10) as i`,
    [prefix, clientId, extra],
  );
  await client.query(
    `update message_threads t set last_seq = m.last_seq, last_message_at = m.last_at, client_read_seq = m.first_seq, firm_read_seq = m.last_seq
     from (select account_id, max(seq) as last_seq, min(seq) as first_seq, max(created_at) as last_at from messages group by account_id) m
     where m.account_id = t.account_id`,
  );
}
