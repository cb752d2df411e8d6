import { type Kysely, sql } from "kysely";

// A legal hold stops every disposal of an account (docs/safeguards.md, "Retention and disposal"),
// including the one that happens when its last person is deleted: the trigger of migration 0200
// deleted such an account, and with it (cascading) its documents, requests and messages. A held
// account now stays without people until the firm lifts the hold; its data goes by the retention
// rules then, as any account's does.
export async function up(db: Kysely<any>): Promise<void> {
  await replacePersonDeletedTrigger(db, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  await replacePersonDeletedTrigger(db, false);
}

/** Migration 0200's trigger function, sparing held accounts or (down) as it was. */
function replacePersonDeletedTrigger(db: Kysely<any>, spareHeld: boolean) {
  const held = spareHeld ? sql`and not exists (select 1 from legal_holds where account_id = old.account_id)` : sql``;
  return sql`
    create or replace function account_contacts_person_deleted() returns trigger language plpgsql as $$
    begin
      if not exists (select 1 from users where id = old.user_id)
         and not exists (select 1 from account_contacts where account_id = old.account_id)
         ${held} then
        delete from accounts where id = old.account_id;
      end if;
      return null;
    end
    $$`.execute(db);
}
