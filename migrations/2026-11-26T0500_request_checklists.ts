import { type Kysely, sql } from "kysely";

// Requests are checklists (issue 34): a request holds items, each with its own status and uploads,
// and the firm keeps templates it reuses each season (docs/decisions.md, "Request checklists (issue
// 34)"). An item goes with its request; a document names the item it was uploaded for (set null
// when the item goes, like request_id). An item's status is stored as open or done; "uploaded" is
// read from its live documents. A template's items are a JSON list of titles, copied when a request
// is made from it, so changing a template never changes a request already sent.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table document_request_items (
      id uuid primary key default gen_random_uuid(),
      request_id uuid not null references document_requests (id) on delete cascade,
      position integer not null,
      title text not null,
      status text not null default 'open' check (status in ('open', 'done')),
      done_at timestamptz,
      created_at timestamptz not null default now(),
      unique (request_id, position)
    )`.execute(db);
  await sql`alter table documents add column request_item_id uuid references document_request_items (id) on delete set null`.execute(db);
  await sql`create index documents_request_item_idx on documents (request_item_id) where request_item_id is not null`.execute(db);
  await sql`
    create table request_templates (
      id uuid primary key default gen_random_uuid(),
      title text not null,
      description text not null default '',
      items jsonb not null default '[]'::jsonb,
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index request_templates_title_idx on request_templates (lower(title), id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table request_templates`.execute(db);
  await sql`drop index documents_request_item_idx`.execute(db);
  await sql`alter table documents drop column request_item_id`.execute(db);
  await sql`drop table document_request_items`.execute(db);
}
