import { type Kysely, sql } from "kysely";

// Issue 47, item 3 (docs/security.md, "Round 4"): a proof of the mailbox that claims an unproven
// login detaches it from the accounts it made or joined before the proof; those accounts stay, with
// their other people and invitations, for the firm to review. `claim_review_at` marks one (when the
// claim left it), `claim_review_user_id` names the login that left it (the address's owner by now),
// so the firm can bring them back in if the account was theirs after all. Both go null when the
// firm marks it reviewed.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table accounts add column claim_review_at timestamptz`.execute(db);
  await sql`alter table accounts add column claim_review_user_id uuid references users(id) on delete set null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table accounts drop column claim_review_user_id`.execute(db);
  await sql`alter table accounts drop column claim_review_at`.execute(db);
}
