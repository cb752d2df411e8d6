import { type Kysely, sql } from "kysely";

// The admin overview shows how many users, documents, folders and appointments there are. An exact
// count(*) reads every row (75 ms at a million documents, growing with the table), so each count is
// kept in row_counts by statement-level triggers: one update per INSERT/DELETE statement, however
// many rows it touched (transition tables; foreign-key cascades and COPY fire them too), and
// TRUNCATE resets it. No CHECK (row_count >= 0): if a count ever drifted, a refused DELETE would be
// far worse than a wrong figure on the overview.
const COUNTED_TABLES = ["users", "documents", "folders", "appointments"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  // No writes between the initial counts and the triggers that take over (the migration is one
  // transaction; another app instance may be running).
  await sql`lock table users, documents, folders, appointments in share row exclusive mode`.execute(db);
  await sql`create table row_counts (table_name text primary key, row_count bigint not null)`.execute(db);

  await sql`
    create function row_counts_after_insert() returns trigger language plpgsql as $$
    declare added bigint;
    begin
      select count(*) into added from inserted_rows;
      -- A statement that inserted nothing leaves the counter row unlocked.
      if added > 0 then
        update row_counts set row_count = row_count + added where table_name = TG_TABLE_NAME;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function row_counts_after_delete() returns trigger language plpgsql as $$
    declare removed bigint;
    begin
      select count(*) into removed from deleted_rows;
      if removed > 0 then
        update row_counts set row_count = row_count - removed where table_name = TG_TABLE_NAME;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create function row_counts_after_truncate() returns trigger language plpgsql as $$
    begin
      update row_counts set row_count = 0 where table_name = TG_TABLE_NAME;
      return null;
    end $$`.execute(db);

  for (const table of COUNTED_TABLES) {
    const name = sql.table(table);
    await sql`insert into row_counts (table_name, row_count) select ${table}, count(*) from ${name}`.execute(db);
    await sql`create trigger ${sql.id(`${table}_count_insert`)} after insert on ${name}
      referencing new table as inserted_rows for each statement execute function row_counts_after_insert()`.execute(db);
    await sql`create trigger ${sql.id(`${table}_count_delete`)} after delete on ${name}
      referencing old table as deleted_rows for each statement execute function row_counts_after_delete()`.execute(db);
    await sql`create trigger ${sql.id(`${table}_count_truncate`)} after truncate on ${name}
      for each statement execute function row_counts_after_truncate()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of COUNTED_TABLES) {
    for (const event of ["insert", "delete", "truncate"]) {
      await sql`drop trigger ${sql.id(`${table}_count_${event}`)} on ${sql.table(table)}`.execute(db);
    }
  }
  await sql`drop function row_counts_after_truncate()`.execute(db);
  await sql`drop function row_counts_after_delete()`.execute(db);
  await sql`drop function row_counts_after_insert()`.execute(db);
  await sql`drop table row_counts`.execute(db);
}
