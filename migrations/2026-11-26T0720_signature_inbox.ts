import { type Kysely, sql } from "kysely";

// The firm's Inbox learns of signature events (issue 35): a signer's first view, a signature, a
// decline and a completed request. The kinds are read from the constraint as it stands, so the
// kinds other migrations of the same day added are kept.
const SIGNATURE_KINDS = ["signature_viewed", "signature_signed", "signature_declined", "signature_completed"];

export async function up(db: Kysely<any>): Promise<void> {
  const kinds = [...(await inboxKinds(db)), ...SIGNATURE_KINDS];
  await sql`alter table inbox_items drop constraint inbox_items_kind_check`.execute(db);
  await sql`alter table inbox_items add constraint inbox_items_kind_check ${kindCheck(kinds)}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from inbox_items where kind in (${sql.join(SIGNATURE_KINDS)})`.execute(db);
  const kinds = await inboxKinds(db);
  await sql`alter table inbox_items drop constraint inbox_items_kind_check`.execute(db);
  await sql`alter table inbox_items add constraint inbox_items_kind_check ${kindCheck(kinds)}`.execute(db);
}

/** The kinds the Inbox's check constraint allows now, without this migration's. */
async function inboxKinds(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ definition: string }>`
    select pg_get_constraintdef(oid) as definition from pg_constraint where conname = 'inbox_items_kind_check'`.execute(db);
  const definition = rows[0]?.definition ?? "";
  return [...new Set([...definition.matchAll(/'([a-z_]+)'/g)].map((match) => match[1] as string))].filter((kind) => !SIGNATURE_KINDS.includes(kind));
}

function kindCheck(kinds: string[]) {
  return sql.raw(`check (kind in (${[...new Set(kinds)].map((kind) => `'${kind}'`).join(", ")}))`);
}
