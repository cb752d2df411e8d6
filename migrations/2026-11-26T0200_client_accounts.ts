import { type Kysely, sql } from "kysely";

// Client accounts (docs/decisions.md, "Client accounts (issue 32)"): the client's data belongs to
// an account that several people reach as its contacts. Every person who owns data today gets an
// individual account whose id IS their user id, so the owned tables' existing values stay valid:
// their person column is renamed to account_id and its foreign key re-pointed to accounts, and no
// row is rewritten. New accounts get fresh random ids.

/** The tables whose rows belong to a client, by their person column (the foreign key's default name). */
const OWNED: { table: string; column: string }[] = [
  { table: "folders", column: "user_id" },
  { table: "documents", column: "user_id" },
  { table: "document_requests", column: "user_id" },
  { table: "appointments", column: "user_id" },
  { table: "upload_notices", column: "user_id" },
  { table: "inbox_items", column: "client_id" },
  { table: "message_threads", column: "client_id" },
];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table accounts (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      kind text not null check (kind in ('individual', 'household', 'business')),
      storage_quota_mb integer check (storage_quota_mb > 0),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index accounts_created_idx on accounts (created_at desc, id desc)`.execute(db);
  await sql`
    create table account_contacts (
      account_id uuid not null references accounts (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      role text not null check (role in ('owner', 'member')),
      portal_access boolean not null default true,
      notify boolean not null default true,
      created_at timestamptz not null default now(),
      primary key (account_id, user_id)
    )`.execute(db);
  await sql`create index account_contacts_user_idx on account_contacts (user_id)`.execute(db);

  // Every client, and any admin who owns client rows (nothing is lost), gets the account of the
  // same id, named after them, as its owner.
  const ownsRows = OWNED.map(({ table, column }) => `exists (select 1 from ${table} t where t.${column} = users.id)`).join(" or ");
  await sql`
    insert into accounts (id, name, kind, storage_quota_mb, created_at)
    select id, coalesce(nullif(btrim(name), ''), nullif(btrim(username), ''), email), 'individual', storage_quota_mb, created_at
    from users
    where not is_admin or ${sql.raw(ownsRows)}`.execute(db);
  await sql`
    insert into account_contacts (account_id, user_id, role, portal_access, notify, created_at)
    select id, id, 'owner', true, true, created_at from accounts`.execute(db);

  for (const { table, column } of OWNED) {
    await sql`alter table ${sql.raw(table)} drop constraint ${sql.raw(`${table}_${column}_fkey`)}`.execute(db);
    await sql`alter table ${sql.raw(table)} rename column ${sql.raw(column)} to account_id`.execute(db);
    await sql`
      alter table ${sql.raw(table)} add constraint ${sql.raw(`${table}_account_id_fkey`)}
      foreign key (account_id) references accounts (id) on delete cascade`.execute(db);
  }
  // messages point at their thread (whose key is now the account's id); the activity trail has
  // no foreign key: it outlives the account.
  await sql`alter table messages rename column client_id to account_id`.execute(db);
  await sql`alter table activity_events rename column client_id to account_id`.execute(db);
  // Who acted beside the account: the client's own messages now name their author too.
  await sql`update messages set sender_id = account_id where sender_role = 'client' and sender_id is null`.execute(db);
  await sql`alter table document_requests add column submitted_by uuid references users (id) on delete set null`.execute(db);
  await sql`alter table appointments add column booked_by uuid references users (id) on delete set null`.execute(db);

  await sql`alter table users drop column storage_quota_mb`.execute(db);
  await sql`alter table sessions add column account_id uuid references accounts (id) on delete set null`.execute(db);
  await sql`
    alter table invitations
      add column account_id uuid references accounts (id) on delete cascade,
      add column role text not null default 'owner' check (role in ('owner', 'member')),
      add column notify boolean not null default true`.execute(db);
  await sql`create index invitations_account_idx on invitations (account_id) where account_id is not null`.execute(db);

  // A person deleted takes with them the accounts they were the last contact of, with their data, as
  // deleting a client did before accounts; an account another person still reaches stays. A firm
  // removing a contact (their user stays) never deletes the account: only the person's deletion does.
  await sql`
    create function account_contacts_person_deleted() returns trigger language plpgsql as $$
    begin
      if not exists (select 1 from users where id = old.user_id)
         and not exists (select 1 from account_contacts where account_id = old.account_id) then
        delete from accounts where id = old.account_id;
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger account_contacts_person_deleted after delete on account_contacts
    for each row execute function account_contacts_person_deleted()`.execute(db);

  // The person the firm's lists name an account by, where they named a client person before: its
  // first owner (else its first contact). An account nobody has joined yet has no row.
  await sql`
    create view account_owners as
    select distinct on (c.account_id) c.account_id, u.id, u.username, u.email, u.name, u.email_verified_at
    from account_contacts c join users u on u.id = c.user_id
    order by c.account_id, (c.role = 'owner') desc, c.created_at, u.id`.execute(db);

  // A contact removed, or whose portal access is turned off, loses the account at once: their open
  // message streams for it end on every instance (docs/security.md, "Client accounts").
  await sql`
    create function account_contacts_notify_ended() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform pg_notify('portal_messages', 'contact-ended:' || old.account_id || ':' || old.user_id);
      elsif old.portal_access and not new.portal_access then
        perform pg_notify('portal_messages', 'contact-ended:' || new.account_id || ':' || new.user_id);
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger account_contacts_notify_ended after delete or update of portal_access on account_contacts
    for each row execute function account_contacts_notify_ended()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger account_contacts_notify_ended on account_contacts`.execute(db);
  await sql`drop function account_contacts_notify_ended()`.execute(db);
  await sql`drop view account_owners`.execute(db);
  await sql`drop trigger account_contacts_person_deleted on account_contacts`.execute(db);
  await sql`drop function account_contacts_person_deleted()`.execute(db);
  // Accounts made after the migration have no person of the same id to go back to: they go, with
  // their data, as a deleted client's would.
  await sql`delete from accounts where not exists (select 1 from users where users.id = accounts.id)`.execute(db);

  await sql`alter table invitations drop column notify, drop column role, drop column account_id`.execute(db);
  await sql`alter table sessions drop column account_id`.execute(db);
  await sql`alter table users add column storage_quota_mb integer check (storage_quota_mb > 0)`.execute(db);
  await sql`update users set storage_quota_mb = accounts.storage_quota_mb from accounts where accounts.id = users.id`.execute(db);

  await sql`alter table appointments drop column booked_by`.execute(db);
  await sql`alter table document_requests drop column submitted_by`.execute(db);
  await sql`alter table activity_events rename column account_id to client_id`.execute(db);
  await sql`alter table messages rename column account_id to client_id`.execute(db);
  for (const { table, column } of [...OWNED].reverse()) {
    await sql`alter table ${sql.raw(table)} drop constraint ${sql.raw(`${table}_account_id_fkey`)}`.execute(db);
    await sql`alter table ${sql.raw(table)} rename column account_id to ${sql.raw(column)}`.execute(db);
    await sql`
      alter table ${sql.raw(table)} add constraint ${sql.raw(`${table}_${column}_fkey`)}
      foreign key (${sql.raw(column)}) references users (id) on delete cascade`.execute(db);
  }
  await sql`drop table account_contacts`.execute(db);
  await sql`drop table accounts`.execute(db);
}
