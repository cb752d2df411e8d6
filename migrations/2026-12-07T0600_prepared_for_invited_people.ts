import { type Kysely, sql } from "kysely";

// Work prepared for people invited but not signed up yet (issue 48, item 2; docs/decisions.md,
// "Prepared for invited people"): client accounts an invited staff member is to look after, and
// signer slots held for an invited client. Accepting the invitation turns both into the real thing
// (an assignment, a signer bound to the new user) in the acceptance's transaction.
export async function up(db: Kysely<any>): Promise<void> {
  // Goes with its invitation (revoked or replaced) or its account.
  await sql`
    create table invitation_assignments (
      invitation_id uuid not null references invitations (id) on delete cascade,
      account_id uuid not null references accounts (id) on delete cascade,
      assigned_at timestamptz not null default now(),
      primary key (invitation_id, account_id)
    )`.execute(db);
  await sql`create index invitation_assignments_account_idx on invitation_assignments (account_id)`.execute(db);
  // A signer slot waiting for an invitation's acceptance has no user yet; the invitation gone, the
  // slot stays unbound (the firm voids the request or signs in person).
  await sql`alter table signature_signers add column invitation_id uuid references invitations (id) on delete set null`.execute(db);
  await sql`create index signature_signers_invitation_idx on signature_signers (invitation_id) where invitation_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table signature_signers drop column invitation_id`.execute(db);
  await sql`drop table invitation_assignments`.execute(db);
}
