import { type Kysely, sql } from "kysely";

// Signatures (issue 35; docs/decisions.md, "Signatures"). A request asks some of an account's people
// to sign one of its PDFs; each signer's row keeps what the certificate page and a later dispute
// need (consent to the ESIGN disclosure, the identity check, the signature, where it came from);
// fields are placed as fractions of their page, so the firm's and the signer's screens agree at any
// size. signature_events is the request's own audit trail (append-only, as activity_events).
// Documents gain `retained_until`: the original of an open request, and the original and the sealed
// PDF of a completed one for 3 years (the IRS's for an ERO's Form 8879), may not be renamed, moved
// or trashed; a trigger backs the documents service's own check. A request goes with its account
// (and so with its documents: the cascade, since an account's deletion removes its documents too).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table documents add column retained_until timestamptz`.execute(db);
  await sql`
    create function documents_retention_guard() returns trigger language plpgsql as $$
    begin
      if old.retained_until is not null and old.retained_until > now()
         and (new.original_filename is distinct from old.original_filename
              or new.folder_id is distinct from old.folder_id
              or new.deleted_at is distinct from old.deleted_at) then
        raise exception 'document % is retained until %', old.id, old.retained_until using errcode = 'P0002';
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger documents_retention_guard before update on documents for each row execute function documents_retention_guard()`.execute(
    db,
  );

  await sql`
    create table signature_requests (
      id uuid primary key default gen_random_uuid(),
      account_id uuid not null references accounts (id) on delete cascade,
      document_id uuid not null references documents (id) on delete cascade,
      title text not null check (length(title) between 1 and 200),
      kind text not null check (kind in ('engagement_letter', 'form_8879', 'other')),
      signing_order text not null check (signing_order in ('parallel', 'sequential')),
      status text not null default 'sent' check (status in ('sent', 'partially_signed', 'completed', 'declined', 'voided')),
      due_date date,
      message text not null default '' check (length(message) <= 5000),
      created_by uuid references users (id) on delete set null,
      original_sha256 text not null,
      sealed_document_id uuid references documents (id) on delete set null,
      sealed_sha256 text,
      void_reason text,
      last_reminded_at timestamptz,
      -- The due date the automatic reminder went out for (jobs/signature-reminders.ts): once per date.
      due_reminder_for date,
      completed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index signature_requests_account_idx on signature_requests (account_id, created_at desc, id desc)`.execute(db);
  await sql`create index signature_requests_sealed_hash_idx on signature_requests (sealed_sha256) where sealed_sha256 is not null`.execute(db);

  await sql`
    create table signature_signers (
      id uuid primary key default gen_random_uuid(),
      request_id uuid not null references signature_requests (id) on delete cascade,
      position integer not null check (position between 0 and 9),
      user_id uuid references users (id) on delete set null,
      name text not null,
      email text not null,
      status text not null default 'pending' check (status in ('pending', 'signed', 'declined')),
      viewed_at timestamptz,
      consent_version text,
      consented_at timestamptz,
      consent_ip text,
      identity_method text check (identity_method in ('email_code', 'second_factor', 'kba', 'in_person')),
      identity_result text,
      identity_checked_at timestamptz,
      identity_checked_by uuid references users (id) on delete set null,
      code_hash text,
      code_expires_at timestamptz,
      code_attempts integer not null default 0,
      signed_at timestamptz,
      sign_ip text,
      sign_user_agent text,
      signature_type text check (signature_type in ('typed', 'drawn')),
      signature_text text,
      signature_image text,
      declined_at timestamptz,
      decline_reason text,
      unique (request_id, position)
    )`.execute(db);
  await sql`create index signature_signers_user_idx on signature_signers (user_id)`.execute(db);

  await sql`
    create table signature_fields (
      id uuid primary key default gen_random_uuid(),
      request_id uuid not null references signature_requests (id) on delete cascade,
      signer_position integer not null,
      ordinal integer not null,
      type text not null check (type in ('signature', 'initials', 'date', 'name', 'text', 'checkbox')),
      page integer not null check (page >= 1),
      x double precision not null check (x >= 0 and x <= 1),
      y double precision not null check (y >= 0 and y <= 1),
      width double precision not null check (width > 0 and width <= 1),
      height double precision not null check (height > 0 and height <= 1),
      required boolean not null default true,
      value text,
      foreign key (request_id, signer_position) references signature_signers (request_id, position) on delete cascade
    )`.execute(db);
  await sql`create index signature_fields_request_idx on signature_fields (request_id, ordinal)`.execute(db);

  await sql`
    create table signature_events (
      id bigint generated always as identity primary key,
      request_id uuid not null references signature_requests (id) on delete cascade,
      occurred_at timestamptz not null default now(),
      action text not null,
      signer_position integer,
      actor_id uuid references users (id) on delete set null,
      actor_label text not null,
      detail jsonb not null default '{}'::jsonb,
      ip text,
      user_agent text
    )`.execute(db);
  await sql`create index signature_events_request_idx on signature_events (request_id, id)`.execute(db);

  // Who agreed to which ESIGN disclosure version, when and from where (one row per agreement).
  await sql`
    create table esign_consents (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      request_id uuid references signature_requests (id) on delete set null,
      disclosure_version text not null,
      consented_at timestamptz not null,
      ip text,
      user_agent text
    )`.execute(db);
  await sql`create index esign_consents_user_idx on esign_consents (user_id, consented_at desc)`.execute(db);

  // The self-signed sealing certificate made when no SIGNING_P12 is set (signatures/certificate.ts).
  await sql`
    create table signing_certificates (
      id text primary key,
      p12 text not null,
      sealed_password text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table signing_certificates`.execute(db);
  await sql`drop table esign_consents`.execute(db);
  await sql`drop table signature_events`.execute(db);
  await sql`drop table signature_fields`.execute(db);
  await sql`drop table signature_signers`.execute(db);
  await sql`drop table signature_requests`.execute(db);
  await sql`drop trigger documents_retention_guard on documents`.execute(db);
  await sql`drop function documents_retention_guard()`.execute(db);
  await sql`alter table documents drop column retained_until`.execute(db);
}
