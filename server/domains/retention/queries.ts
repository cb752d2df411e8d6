// Every statement of retention and disposal (docs/safeguards.md, "Retention and disposal").
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../../db/types.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";
import type { DisposalRule } from "./schemas.ts";

export const RETENTION_YEARS_KEY = "retention_years";
export const FORM_8879_YEARS_KEY = "retention_form_8879_years";

/**
 * An account's last activity (`a` is the accounts row): the latest of its creation, a sign-in of one
 * of its people, an upload into it (by the client or the firm), a message either way, a document
 * request's creation, change or submission, a signature request's creation, change, completion or
 * signing, and an organizer's submission or a change of one of its answers. The firm merely reading
 * or downloading is not activity: it would keep every account forever.
 */
const lastActivityAt = sql<Date>`greatest(
  a.created_at,
  (select max(e.occurred_at) from activity_events e join account_contacts c on c.user_id = e.actor_id
     where c.account_id = a.id and e.action = 'auth.sign_in'),
  (select max(d.upload_date) from documents d where d.account_id = a.id),
  (select max(m.created_at) from messages m where m.account_id = a.id),
  (select max(greatest(r.created_at, r.updated_at, r.submitted_at)) from document_requests r where r.account_id = a.id),
  (select max(greatest(s.created_at, s.updated_at, s.completed_at)) from signature_requests s where s.account_id = a.id),
  (select max(ss.signed_at) from signature_signers ss join signature_requests s on s.id = ss.request_id where s.account_id = a.id),
  (select max(greatest(o.submitted_at, oa.updated_at)) from organizers o left join organizer_answers oa on oa.organizer_id = o.id
     where o.account_id = a.id)
)`;

export type RetentionRules = { years: number; form8879Years: number; trashDays: number };

/** A document and when it may go: `due_at` and the rule that makes it due (locks only push it later). */
export type DisposalCandidate = {
  id: string;
  account_id: string;
  account_name: string;
  original_filename: string;
  storage_key: string;
  file_size: number;
  rule: DisposalRule;
  due_at: Date;
  last_activity_at: Date;
  held: boolean;
};

/**
 * Every document of the accounts `where` selects, with when it is due: the earlier of "N years
 * after the account's last activity" and "30 days in the trash", but never before the document's
 * retained_until (a signature's lock, migration 0600) nor, for the original or the sealed PDF of a
 * completed Form 8879, before the firm's years after its signing.
 */
function candidates(rules: RetentionRules, where: RawBuilder<boolean>) {
  return sql<DisposalCandidate>`
    -- Materialized: each account's last activity once, not once per document joined to it (10x on 100k documents).
    with acct as materialized (
      select a.id, a.name, ${lastActivityAt} as last_activity_at,
        exists (select 1 from legal_holds h where h.account_id = a.id) as held
      from accounts a
      where ${where}
    ),
    dated as (
      select d.id, d.account_id, acct.name as account_name, d.original_filename, d.storage_key, d.file_size,
        acct.last_activity_at, acct.held,
        acct.last_activity_at + make_interval(years => ${rules.years}) as inactive_at,
        d.deleted_at + make_interval(days => ${rules.trashDays}) as trash_at,
        -- The account's requests only: its index, not a scan of every request for each document.
        greatest(
          d.retained_until,
          (select max(s.completed_at) + make_interval(years => ${rules.form8879Years}) from signature_requests s
            where s.account_id = d.account_id and s.kind = 'form_8879' and s.status = 'completed'
              and (s.document_id = d.id or s.sealed_document_id = d.id))
        ) as kept_until
      from documents d join acct on acct.id = d.account_id
    )
    select id, account_id, account_name, original_filename, storage_key, file_size, last_activity_at, held,
      case when trash_at is not null and trash_at <= inactive_at then 'trash' else 'inactivity' end as rule,
      greatest(least(inactive_at, trash_at), kept_until) as due_at
    from dated`;
}

/** Documents due by `horizon`, held accounts' included (the firm's list), in the accounts `scope` reaches. */
export async function listDueByForFirm(db: Db, scope: FirmScope, rules: RetentionRules, horizon: Date): Promise<DisposalCandidate[]> {
  const result = await sql<DisposalCandidate>`
    select * from (${candidates(rules, sql<boolean>`${inFirmScope(scope, "a.id")}`)}) c
    where c.due_at <= ${horizon}
    order by c.due_at, c.account_id`.execute(db);
  return result.rows.map(normalize);
}

/** Accounts with a document due at `now` and no hold, oldest due first. */
export async function accountsDueBy(db: Db, rules: RetentionRules, now: Date): Promise<string[]> {
  const result = await sql<{ account_id: string }>`
    select account_id from (${candidates(rules, sql<boolean>`true`)}) c
    where c.due_at <= ${now} and not c.held
    group by account_id order by min(c.due_at)`.execute(db);
  return result.rows.map((r) => r.account_id);
}

/** Accounts with a document past its time in the trash (and no hold): the hourly purge's worklist, without the activity reckoning. */
export async function accountsWithExpiredTrash(db: Db, rules: RetentionRules, now: Date): Promise<string[]> {
  const cutoff = new Date(now.getTime() - rules.trashDays * 24 * 60 * 60 * 1000);
  const rows = await db
    .selectFrom("documents as d")
    .select("d.account_id")
    .distinct()
    .where("d.deleted_at", "<", cutoff)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("legal_holds as h").select("h.account_id").whereRef("h.account_id", "=", "d.account_id"))))
    .execute();
  return rows.map((r) => r.account_id);
}

/**
 * Locks the account for its disposal: an upload, a hold or a new contact (which reference it)
 * waits until this transaction ends, and a hold placed first is seen here. Undefined: no such account.
 */
export async function lockAccountForDisposal(db: Db, accountId: string): Promise<{ name: string; held: boolean } | undefined> {
  const row = await db.selectFrom("accounts").select("name").where("id", "=", accountId).forUpdate().executeTakeFirst();
  if (!row) return undefined;
  const hold = await db.selectFrom("legal_holds").select("account_id").where("account_id", "=", accountId).executeTakeFirst();
  return { name: row.name, held: hold !== undefined };
}

/** Which of `accountIds` are under a legal hold (lock the accounts first, as lockAccountForDisposal does, so none is placed meanwhile). */
export async function heldAccountIds(db: Db, accountIds: readonly string[]): Promise<string[]> {
  if (accountIds.length === 0) return [];
  const rows = await db.selectFrom("legal_holds").select("account_id").where("account_id", "in", accountIds).execute();
  return rows.map((r) => r.account_id);
}

/**
 * Until when each of `accountIds` keeps signed records (the latest lock of its documents, a signed
 * Form 8879 the firm's years after its signing): the accounts a person's deletion leaves standing
 * without people, as a hold does. The database's own function (migration
 * 2026-12-07T0200_signed_records_outlive_deletion), so the person-deleted trigger spares the same
 * accounts; accounts keeping nothing are absent.
 */
export async function signedRecordsKeptUntil(db: Db, accountIds: readonly string[]): Promise<Map<string, Date>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("accounts")
    .select(["id", sql<Date | null>`account_signed_records_kept_until(accounts.id)`.as("until")])
    .where("id", "in", accountIds)
    .execute();
  return new Map(rows.filter((r) => r.until !== null).map((r) => [r.id, new Date(r.until!)]));
}

/** One account's documents due at `now`, at most `limit`; with `trashOnly`, only those due under the trash rule. */
export async function dueDocumentsOf(db: Db, rules: RetentionRules, accountId: string, now: Date, limit: number, trashOnly: boolean) {
  const result = await sql<DisposalCandidate>`
    select * from (${candidates(rules, sql<boolean>`a.id = ${accountId}`)}) c
    where c.due_at <= ${now} ${trashOnly ? sql`and c.rule = 'trash'` : sql``}
    order by c.due_at, c.id
    limit ${limit}`.execute(db);
  return result.rows.map(normalize);
}

/**
 * Deletes these documents' rows (their signature requests, attachments and notices go by cascade),
 * checking again what a concurrent change could undo: a lock placed since, and for the trash rule a
 * restore (the row is live again, or trashed anew).
 */
export async function deleteDocumentRows(
  db: Db,
  due: readonly Pick<DisposalCandidate, "id" | "rule">[],
  rules: RetentionRules,
  now: Date,
): Promise<{ id: string; storage_key: string }[]> {
  const deleted: { id: string; storage_key: string }[] = [];
  const trashCutoff = new Date(now.getTime() - rules.trashDays * 24 * 60 * 60 * 1000);
  for (const rule of ["inactivity", "trash"] as const) {
    const ids = due.filter((d) => d.rule === rule).map((d) => d.id);
    if (ids.length === 0) continue;
    let query = db
      .deleteFrom("documents")
      .where("id", "in", ids)
      .where((eb) => eb.or([eb("retained_until", "is", null), eb("retained_until", "<=", now)]));
    if (rule === "trash") query = query.where("deleted_at", "<=", trashCutoff);
    deleted.push(...(await query.returning(["id", "storage_key"]).execute()));
  }
  return deleted;
}

/** `file_size` may come back as a string (bigint) and dates as strings on some drivers. */
function normalize(row: DisposalCandidate): DisposalCandidate {
  return {
    ...row,
    file_size: Number(row.file_size),
    due_at: new Date(row.due_at),
    last_activity_at: new Date(row.last_activity_at),
    held: Boolean(row.held),
  };
}

export async function findLegalHold(db: Db, scope: FirmScope, accountId: string) {
  return db
    .selectFrom("accounts as a")
    .leftJoin("legal_holds as h", "h.account_id", "a.id")
    .leftJoin("users as u", "u.id", "h.placed_by")
    .select(["a.id as account_id", "a.name as account_name", "h.reason", "h.placed_at", "u.name as placed_by_name"])
    .where("a.id", "=", accountId)
    .where(inFirmScope(scope, "a.id"))
    .executeTakeFirst();
}

/** The holds of the accounts `scope` reaches, newest first. */
export async function listLegalHolds(db: Db, scope: FirmScope) {
  return db
    .selectFrom("legal_holds as h")
    .innerJoin("accounts as a", "a.id", "h.account_id")
    .leftJoin("users as u", "u.id", "h.placed_by")
    .select(["h.account_id", "a.name as account_name", "h.reason", "h.placed_at", "u.name as placed_by_name"])
    .where(inFirmScope(scope, "a.id"))
    .orderBy("h.placed_at", "desc")
    .execute();
}

/** Accounts `scope` reaches that have no people and keep signed records, with the day those are released, soonest first. */
export async function listKeptWithoutPeople(db: Db, scope: FirmScope) {
  const rows = await db
    .selectFrom(
      db
        .selectFrom("accounts as a")
        .select(["a.id as account_id", "a.name as account_name", sql<Date | null>`account_signed_records_kept_until(a.id)`.as("retained_until")])
        .where(inFirmScope(scope, "a.id"))
        .where((eb) => eb.not(eb.exists(eb.selectFrom("account_contacts as c").select("c.user_id").whereRef("c.account_id", "=", "a.id"))))
        .as("k"),
    )
    .selectAll()
    .where("retained_until", "is not", null)
    .orderBy("retained_until")
    .orderBy("account_id")
    .execute();
  return rows.map((r) => ({ ...r, retained_until: new Date(r.retained_until!) }));
}

/** Places the hold, or changes its reason; answers the reason it had before (undefined: none). */
export async function upsertLegalHold(db: Db, accountId: string, reason: string, by: string, now: Date): Promise<string | undefined> {
  const before = await db.selectFrom("legal_holds").select("reason").where("account_id", "=", accountId).forUpdate().executeTakeFirst();
  await db
    .insertInto("legal_holds")
    .values({ account_id: accountId, reason, placed_by: by, placed_at: now })
    .onConflict((oc) => oc.column("account_id").doUpdateSet({ reason, placed_by: by, placed_at: now }))
    .execute();
  return before?.reason;
}

export async function deleteLegalHold(db: Db, accountId: string): Promise<{ reason: string } | undefined> {
  return db.deleteFrom("legal_holds").where("account_id", "=", accountId).returning("reason").executeTakeFirst();
}
