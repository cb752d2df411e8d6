// Issue 33: a change of whom a staff member reaches (their role, their rights, the accounts assigned
// to them) is a notice on the message channel, in the change's own transaction, so every instance
// narrows or widens that person's open message streams at once rather than at their next reconnect
// (docs/security.md, "Assigned accounts").
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function staff_scope_notify() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'account_assignees' and tg_op = 'DELETE' then
        perform pg_notify('portal_messages', 'scope-changed:' || old.user_id);
      elsif tg_table_name = 'account_assignees' then
        perform pg_notify('portal_messages', 'scope-changed:' || new.user_id);
      elsif old.staff_role is distinct from new.staff_role or old.staff_rights is distinct from new.staff_rights then
        perform pg_notify('portal_messages', 'scope-changed:' || new.id);
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger account_assignees_scope_notify after insert or delete on account_assignees
    for each row execute function staff_scope_notify()`.execute(db);
  await sql`
    create trigger users_staff_scope_notify after update of staff_role, staff_rights on users
    for each row execute function staff_scope_notify()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger users_staff_scope_notify on users`.execute(db);
  await sql`drop trigger account_assignees_scope_notify on account_assignees`.execute(db);
  await sql`drop function staff_scope_notify()`.execute(db);
}
