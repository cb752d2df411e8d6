import { type Kysely, sql } from "kysely";

// Invitations and accounts (issue 32; docs/decisions.md, "The firm's paths take the account"): one
// open invitation per address *per account*, so a person invited to one account can be invited to
// a second; an invitation remembers whether it made its account (the firm's plain invitation), so
// revoking it removes that account while nothing else is in it; and an account's deletion keeps
// the revoked invitation in the firm's list (its account_id becomes null).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index invitations_open_email_key`.execute(db);
  await sql`create unique index invitations_open_email_key on invitations (lower(email), account_id) nulls not distinct
    where accepted_at is null and revoked_at is null`.execute(db);
  await sql`alter table invitations add column made_account boolean not null default false`.execute(db);
  await sql`alter table invitations drop constraint invitations_account_id_fkey`.execute(db);
  await sql`alter table invitations add constraint invitations_account_id_fkey foreign key (account_id) references accounts (id) on delete set null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table invitations drop constraint invitations_account_id_fkey`.execute(db);
  await sql`alter table invitations add constraint invitations_account_id_fkey foreign key (account_id) references accounts (id) on delete cascade`.execute(
    db,
  );
  await sql`alter table invitations drop column made_account`.execute(db);
  // Back to one open invitation per address: the later ones to a further account are revoked.
  await sql`update invitations i set revoked_at = now() where accepted_at is null and revoked_at is null
    and exists (select 1 from invitations o where lower(o.email) = lower(i.email) and o.accepted_at is null and o.revoked_at is null
      and (o.created_at, o.id) < (i.created_at, i.id))`.execute(db);
  await sql`drop index invitations_open_email_key`.execute(db);
  await sql`create unique index invitations_open_email_key on invitations (lower(email)) where accepted_at is null and revoked_at is null`.execute(
    db,
  );
}
