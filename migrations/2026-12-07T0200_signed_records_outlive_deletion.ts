import { type Kysely, sql } from "kysely";

// Signed records outlive every deletion while they are retained (issue 47, item 2; docs/security.md,
// "Round 4"). Migration 0600's lock refused only changes (UPDATE) of a retained document, so deleting
// a person, which deletes the accounts they were the last of, deleted a sealed Form 8879 inside its
// 3 years, with its request, signers and audit events (the cascade), and the public verify page no
// longer knew the file. Now:
// - a retained document (retained_until after now) cannot be deleted either, nor its lock shortened
//   while a completed request holds it (a voided or declined one releases its original, as before);
// - a signature request, its signers, fields and events cannot be deleted while the original or the
//   sealed file of the request is retained;
// - `account_signed_records_kept_until(account)` says until when an account keeps signed records:
//   the latest lock of its documents, and for a completed Form 8879 the firm's years after its
//   signing (the retention rules' `retention_form_8879_years`, at least 3, as retention/service.ts
//   reads it). The person-deleted trigger spares such an account as it spares a held one (migration
//   2026-11-27T0200): it stands without people until then, and its data goes by the retention rules.
// Every guard reads the database's clock: a retained row is refused whatever the asking code's clock says.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function documents_retention_guard() returns trigger language plpgsql as $$
    begin
      if old.retained_until is not null and old.retained_until > now() then
        if tg_op = 'DELETE' then
          raise exception 'document % is retained until %', old.id, old.retained_until using errcode = 'P0002';
        end if;
        if new.original_filename is distinct from old.original_filename
           or new.folder_id is distinct from old.folder_id
           or new.deleted_at is distinct from old.deleted_at
           or ((new.retained_until is null or new.retained_until < old.retained_until)
               and exists (select 1 from signature_requests s
                           where s.status = 'completed' and (s.document_id = old.id or s.sealed_document_id = old.id))) then
          raise exception 'document % is retained until %', old.id, old.retained_until using errcode = 'P0002';
        end if;
      end if;
      if tg_op = 'DELETE' then
        return old;
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger documents_retention_delete_guard before delete on documents
    for each row execute function documents_retention_guard()`.execute(db);

  await sql`
    create function signature_records_retention_guard() returns trigger language plpgsql as $$
    declare
      request uuid;
      kept timestamptz;
    begin
      if tg_table_name = 'signature_requests' then
        request := old.id;
      else
        request := old.request_id;
      end if;
      select max(d.retained_until) into kept
        from signature_requests r join documents d on d.id = r.document_id or d.id = r.sealed_document_id
        where r.id = request and d.retained_until > now();
      if kept is not null then
        raise exception 'signature request % is retained until %', request, kept using errcode = 'P0002';
      end if;
      return old;
    end $$`.execute(db);
  for (const table of SIGNATURE_TABLES) {
    await sql`
      create trigger ${sql.raw(`${table}_retention_guard`)} before delete on ${sql.raw(table)}
      for each row execute function signature_records_retention_guard()`.execute(db);
  }

  await sql`
    create function account_signed_records_kept_until(account uuid) returns timestamptz language sql stable as $$
      select max(kept.until) from (
        select d.retained_until as until from documents d where d.account_id = account and d.retained_until > now()
        union all
        select s.completed_at + make_interval(years => (
            select coalesce(max(greatest(f.value::int, 3)), 3) from firm_settings f
            where f.key = 'retention_form_8879_years' and f.value ~ '^[0-9]{1,3}$'))
          from signature_requests s
          where s.account_id = account and s.kind = 'form_8879' and s.status = 'completed' and s.completed_at is not null
      ) kept
      where kept.until > now()
    $$`.execute(db);
  await replacePersonDeletedTrigger(db, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  await replacePersonDeletedTrigger(db, false);
  await sql`drop function account_signed_records_kept_until(uuid)`.execute(db);
  for (const table of SIGNATURE_TABLES) await sql`drop trigger ${sql.raw(`${table}_retention_guard`)} on ${sql.raw(table)}`.execute(db);
  await sql`drop function signature_records_retention_guard()`.execute(db);
  await sql`drop trigger documents_retention_delete_guard on documents`.execute(db);
  await sql`
    create or replace function documents_retention_guard() returns trigger language plpgsql as $$
    begin
      if old.retained_until is not null and old.retained_until > now()
         and (new.original_filename is distinct from old.original_filename
              or new.folder_id is distinct from old.folder_id
              or new.deleted_at is distinct from old.deleted_at) then
        raise exception 'document % is retained until %', old.id, old.retained_until using errcode = 'P0002';
      end if;
      return new;
    end $$`.execute(db);
}

/** The rows of a signature record: the request and what hangs on it. */
const SIGNATURE_TABLES = ["signature_requests", "signature_signers", "signature_fields", "signature_events"] as const;

/** Migration 2026-11-27T0200's trigger function, sparing also (up) an account that keeps signed records. */
function replacePersonDeletedTrigger(db: Kysely<any>, spareSigned: boolean) {
  const signed = spareSigned ? sql`and account_signed_records_kept_until(old.account_id) is null` : sql``;
  return sql`
    create or replace function account_contacts_person_deleted() returns trigger language plpgsql as $$
    begin
      if not exists (select 1 from users where id = old.user_id)
         and not exists (select 1 from account_contacts where account_id = old.account_id)
         and not exists (select 1 from legal_holds where account_id = old.account_id)
         ${signed} then
        delete from accounts where id = old.account_id;
      end if;
      return null;
    end
    $$`.execute(db);
}
