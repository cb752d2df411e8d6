import { type Kysely, sql } from "kysely";

// Deleting a document moves it to the trash for 30 days (issue 17). A trashed document is in no
// folder: its folder_id is cleared, so it neither shows in that folder nor keeps the folder from
// being deleted (the NO ACTION key still guards every live document). The folder it came from is
// kept in trashed_from_folder_id, deliberately without a foreign key: a restore checks (and locks)
// that folder itself and uses the root when it is gone, and a key there would make a folder delete
// update, and wait for, the trashed rows that name it.
//
// Every live listing now filters on deleted_at is null, so their indexes become partial ones: the
// trash never slows them down and costs them no index space. The trash has its own small indexes:
// one user's trash newest first, and everyone's by age for the purge (and the admin's trash list).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table documents
    add column deleted_at timestamptz,
    add column trashed_from_folder_id uuid,
    add constraint documents_trashed_in_no_folder check (deleted_at is null or folder_id is null),
    add constraint documents_trashed_from_only_if_trashed check (trashed_from_folder_id is null or deleted_at is not null)`.execute(db);

  await sql`drop index documents_user_folder_idx`.execute(db);
  await sql`create index documents_live_user_folder_idx on documents (user_id, folder_id, upload_date desc, id desc) where deleted_at is null`.execute(
    db,
  );
  // A client's search across all folders, newest first (its default order), stops after one page.
  await sql`create index documents_live_user_date_idx on documents (user_id, upload_date desc, id desc) where deleted_at is null`.execute(db);
  await sql`drop index documents_upload_date_idx`.execute(db);
  await sql`create index documents_live_upload_date_idx on documents (upload_date desc, id desc) where deleted_at is null`.execute(db);

  await sql`create index documents_trash_idx on documents (user_id, deleted_at desc) where deleted_at is not null`.execute(db);
  await sql`create index documents_purge_idx on documents (deleted_at) where deleted_at is not null`.execute(db);
}

/** Trashed documents come back as live ones, in the folder they came from if it is still there. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`update documents d set folder_id = f.id from folders f where d.deleted_at is not null and f.id = d.trashed_from_folder_id`.execute(db);
  await sql`drop index documents_purge_idx`.execute(db);
  await sql`drop index documents_trash_idx`.execute(db);
  await sql`drop index documents_live_upload_date_idx`.execute(db);
  await sql`create index documents_upload_date_idx on documents (upload_date desc, id desc)`.execute(db);
  await sql`drop index documents_live_user_date_idx`.execute(db);
  await sql`drop index documents_live_user_folder_idx`.execute(db);
  await sql`create index documents_user_folder_idx on documents (user_id, folder_id, upload_date desc)`.execute(db);
  await sql`alter table documents
    drop constraint documents_trashed_from_only_if_trashed,
    drop constraint documents_trashed_in_no_folder,
    drop column trashed_from_folder_id,
    drop column deleted_at`.execute(db);
}
