import { type Kysely, sql } from "kysely";

// Tax organizers (issue 36; docs/decisions.md, "Organizers"): the firm's questionnaire templates,
// the organizers sent to client accounts (each keeps its own copy of the template as sent), one
// row per answer (so two partial saves side by side never overwrite each other's answers), and
// documents uploaded as the answer to a file question. A sensitive answer is stored sealed
// (`sealed`, AES-256-GCM under TOTP_ENCRYPTION_KEY when set; docs/security.md, "Sensitive
// organizer answers"), its `value` then null.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table organizer_templates (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      template jsonb not null,
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      archived_at timestamptz
    )`.execute(db);

  await sql`
    create table organizers (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts (id) on delete cascade,
      template_id uuid references organizer_templates (id) on delete set null,
      template jsonb not null,
      title text not null,
      due_date date,
      status text not null default 'sent' check (status in ('draft', 'sent', 'submitted', 'reopened')),
      folder_id uuid references folders (id) on delete set null,
      reopen_comment text,
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      sent_at timestamptz,
      submitted_at timestamptz
    )`.execute(db);
  // One account's organizers (the client's list; last year's of the same template), the firm's list newest first.
  await sql`create index organizers_account_idx on organizers (account_id, created_at desc, id desc)`.execute(db);
  await sql`create index organizers_created_idx on organizers (created_at desc, id desc)`.execute(db);
  await sql`create index organizers_template_idx on organizers (template_id) where template_id is not null`.execute(db);
  await sql`create index organizers_folder_idx on organizers (folder_id) where folder_id is not null`.execute(db);

  await sql`
    create table organizer_answers (
      organizer_id uuid not null references organizers (id) on delete cascade,
      question_id text not null,
      value jsonb,
      sealed text,
      from_last_year boolean not null default false,
      reviewed_at timestamptz,
      reviewed_by uuid references users (id) on delete set null,
      version integer not null default 1,
      updated_at timestamptz not null default now(),
      primary key (organizer_id, question_id),
      check (value is null or sealed is null)
    )`.execute(db);

  await sql`alter table documents add column organizer_id uuid references organizers (id) on delete set null`.execute(db);
  await sql`alter table documents add column organizer_question_id text`.execute(db);
  await sql`create index documents_organizer_idx on documents (organizer_id, organizer_question_id) where organizer_id is not null`.execute(db);

  // The firm's Inbox learns of a submitted organizer. The kinds are read from the constraint as it
  // stands, so a migration of the same day that added its own kind keeps it.
  const kinds = [...(await inboxKinds(db)), "organizer_submitted"];
  await sql`alter table inbox_items drop constraint inbox_items_kind_check`.execute(db);
  await sql`alter table inbox_items add constraint inbox_items_kind_check ${kindCheck(kinds)}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from inbox_items where kind = 'organizer_submitted'`.execute(db);
  const kinds = (await inboxKinds(db)).filter((kind) => kind !== "organizer_submitted");
  await sql`alter table inbox_items drop constraint inbox_items_kind_check`.execute(db);
  await sql`alter table inbox_items add constraint inbox_items_kind_check ${kindCheck(kinds)}`.execute(db);
  await sql`drop index documents_organizer_idx`.execute(db);
  await sql`alter table documents drop column organizer_question_id`.execute(db);
  await sql`alter table documents drop column organizer_id`.execute(db);
  await sql`drop table organizer_answers`.execute(db);
  await sql`drop table organizers`.execute(db);
  await sql`drop table organizer_templates`.execute(db);
}

/** The kinds the Inbox's check constraint allows now. */
async function inboxKinds(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ definition: string }>`
    select pg_get_constraintdef(oid) as definition from pg_constraint where conname = 'inbox_items_kind_check'`.execute(db);
  const definition = rows[0]?.definition ?? "";
  return [...new Set([...definition.matchAll(/'([a-z_]+)'/g)].map((match) => match[1] as string))].filter((kind) => kind !== "organizer_submitted");
}

function kindCheck(kinds: string[]) {
  return sql.raw(`check (kind in (${[...new Set(kinds)].map((kind) => `'${kind}'`).join(", ")}))`);
}
