import { type Kysely, sql } from "kysely";

// The firm's people have no client account (issue 47, item 7; docs/security.md, "Round 4"). Until
// now every accepted staff invitation made an individual account owned by the new staff member:
// listed among the firm's clients, counted with them, and open to the staff member through the
// client paths. Invitations no longer make one; this removes the ones they made, and only those
// that hold nothing: an account is deleted when
// - it has people, and every one of them is one of the firm's people (users.is_admin), and
// - no row of any table that references accounts points at it (documents, folders, requests,
//   appointments, message threads and so messages, signature requests, organizers, notes, legal
//   holds, assignments, invitations, upload notices, inbox items: read from the foreign keys, so
//   none is forgotten), but for its contact rows and the sessions that had it open (whose current
//   account is cleared by their foreign key).
// An account of the firm's people that holds anything stays as it is, for the firm to look at; the
// trail keeps what it recorded about any account (it has no foreign key).
export async function up(db: Kysely<any>): Promise<void> {
  const references = await sql<{ table_name: string; column_name: string }>`
    select c.conrelid::regclass::text as table_name, a.attname as column_name
    from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    where c.contype = 'f' and c.confrelid = 'accounts'::regclass
      and c.conrelid::regclass::text not in ('account_contacts', 'sessions')
    order by 1`.execute(db);
  const holdsNothing = references.rows.map((r) => sql`not exists (select 1 from ${sql.id(r.table_name)} t where t.${sql.id(r.column_name)} = a.id)`);
  await sql`
    delete from accounts a
    where exists (select 1 from account_contacts c where c.account_id = a.id)
      and not exists (select 1 from account_contacts c join users u on u.id = c.user_id where c.account_id = a.id and not u.is_admin)
      and ${sql.join(holdsNothing, sql` and `)}`.execute(db);
}

/** Gives back an individual account to each of the firm's people who joined by a staff invitation and has none, as accepting made. */
export async function down(db: Kysely<any>): Promise<void> {
  const lacking = await sql<{ id: string; name: string }>`
    select distinct u.id, coalesce(nullif(btrim(u.name), ''), nullif(btrim(u.username), ''), u.email) as name
    from users u join invitations i on i.accepted_user_id = u.id and i.staff_role is not null
    where u.is_admin and not exists (select 1 from account_contacts c where c.user_id = u.id)`.execute(db);
  for (const person of lacking.rows) {
    const made = await sql<{ id: string }>`insert into accounts (name, kind) values (${person.name}, 'individual') returning id`.execute(db);
    await sql`insert into account_contacts (account_id, user_id, role) values (${made.rows[0]!.id}, ${person.id}, 'owner')`.execute(db);
  }
}
