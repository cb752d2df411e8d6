// The firm's statements on documents: every client's documents and trash within the asker's reach, the
// admin's counts, and each account's storage and quota.
import { type ExpressionBuilder, sql, type Transaction } from "kysely";
import { tableCounts } from "../../db/row-counts.ts";
import { containsPattern, type PageWindow } from "../../db/search.ts";
import type { Database, Db } from "../../db/types.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";
import { fromFirm, uploadedByName } from "./queries.ts";

/**
 * The firm's lists name a document's client as they did when a client was one person: `user_id`,
 * `user_name` and `user_email` are the account's first owner's (docs/decisions.md, "Client accounts
 * (issue 32)"), or the account's id and name while nobody has joined it yet.
 */
const accountPersonColumns = [
  sql<string>`coalesce(owner.owner_id, documents.account_id)`.as("user_id"),
  sql<string>`coalesce(owner.owner_name, accounts.name)`.as("user_name"),
  sql<string>`coalesce(owner.owner_email, '')`.as("user_email"),
] as const;

const adminDocumentColumns = [
  "documents.id",
  "documents.original_filename",
  "documents.upload_date",
  "documents.file_size",
  "documents.folder_id",
  "documents.content_type",
  ...accountPersonColumns,
  fromFirm,
  uploadedByName,
] as const;

/** Live (or trashed) documents whose filename, or whose owner's name or email, contains `q`. */
function documentMatches(db: Db, q: string | undefined, trashed = false) {
  let query = db.selectFrom("documents").where("documents.deleted_at", trashed ? "is not" : "is", null);
  if (q) {
    const pattern = containsPattern(q);
    // Owner matches go through a subquery on users, so each side can use its own trigram index
    // (an OR across the join could not use either).
    query = query.where((eb) =>
      eb.or([eb("documents.original_filename", "ilike", pattern), eb("documents.account_id", "in", accountsOfPeopleMatching(eb, pattern))]),
    );
  }
  return query;
}

/** The accounts one of whose people has a name or email matching (their trigram indexes), or whose own name does. */
function accountsOfPeopleMatching(eb: ExpressionBuilder<Database, "documents">, pattern: string) {
  return eb
    .selectFrom("account_contacts")
    .innerJoin("users", "users.id", "account_contacts.user_id")
    .select("account_contacts.account_id")
    .where((u) => u.or([u("users.name", "ilike", pattern), u("users.email", "ilike", pattern)]))
    .union(eb.selectFrom("accounts").select("accounts.id as account_id").where("accounts.name", "ilike", pattern));
}

function matchingDocuments(db: Db, q: string | undefined, trashed = false) {
  return documentMatches(db, q, trashed)
    .innerJoin("accounts", "accounts.id", "documents.account_id")
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("account_contacts as c")
          .innerJoin("users as u", "u.id", "c.user_id")
          .select(["u.id as owner_id", "u.name as owner_name", "u.email as owner_email"])
          .whereRef("c.account_id", "=", "documents.account_id")
          .orderBy(sql`c.role = 'owner'`, "desc")
          .orderBy("c.created_at")
          .limit(1)
          .as("owner"),
      (join) => join.onTrue(),
    );
}

/**
 * How many live documents match, counted up to `cap` + 1 on each side of the search: filenames
 * (the trigram bitmap), then documents of matching owners whose filename does not match (their
 * user_id index), so none counts twice. The single OR of both could use no index and read the whole
 * table (0.4 to 1.2 s at a million documents); with a LIMIT the planner may still expect early
 * matches in a sequential scan, so sequential scans are switched off for this count.
 */
async function countMatches(db: Db, q: string, cap: number): Promise<number> {
  const pattern = containsPattern(q);
  const upTo = (tx: Db, matches: ReturnType<typeof liveDocuments>) =>
    tx
      .selectFrom(
        matches
          .select(sql`1`.as("one"))
          .limit(cap + 1)
          .as("matches"),
      )
      .select(sql<number>`count(*)::int`.as("n"))
      .executeTakeFirstOrThrow()
      .then((row) => row.n);
  const liveDocuments = (tx: Db) => tx.selectFrom("documents").where("documents.deleted_at", "is", null);
  const run = async (tx: Transaction<Database>) => {
    await sql`set local enable_seqscan = off`.execute(tx);
    const byName = await upTo(tx, liveDocuments(tx).where("documents.original_filename", "ilike", pattern));
    if (byName > cap) return byName;
    const byOwner = await upTo(
      tx,
      liveDocuments(tx)
        .where("documents.original_filename", "not ilike", pattern)
        .where("documents.account_id", "in", (eb) => accountsOfPeopleMatching(eb, pattern)),
    );
    return byName + byOwner;
  };
  return db.isTransaction ? run(db as Transaction<Database>) : db.transaction().execute(run);
}

/** Every user's documents (the admin's list), newest first; `q` matches the filename or the owner's name or email. */
export function allDocumentRows(db: Db, scope: FirmScope, page: PageWindow) {
  return matchingDocuments(db, page.q)
    .where(inFirmScope(scope, "documents.account_id"))
    .select(adminDocumentColumns)
    .orderBy("documents.upload_date", "desc")
    .orderBy("documents.id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/**
 * A search's matches are counted up to this many: the exact count of a common word over a million
 * documents visits every match (350 ms) for a figure nobody pages through; past it the page says
 * "10,000+".
 */
const SEARCH_COUNT_CAP = 10_000;

export async function listAllDocuments(db: Db, scope: FirmScope, page: PageWindow) {
  // A staff member's assigned accounts are few: their documents are counted exactly.
  if (!scope.all) {
    const [items, counted] = await Promise.all([
      allDocumentRows(db, scope, page),
      matchingDocuments(db, page.q)
        .where(inFirmScope(scope, "documents.account_id"))
        .select(sql<number>`count(*)::int`.as("n"))
        .executeTakeFirstOrThrow(),
    ]);
    return { items, total: counted.n };
  }
  // Without a search every live document counts (each has its owner): the kept count of all rows
  // less the trash, which is small and counted from its own index.
  if (!page.q) {
    const [items, total] = await Promise.all([allDocumentRows(db, scope, page), liveDocumentCount(db)]);
    return { items, total };
  }
  // Counted far enough to cover this page, at least to the cap.
  const cap = Math.max(SEARCH_COUNT_CAP, page.offset + page.limit);
  const [items, counted] = await Promise.all([allDocumentRows(db, scope, page), countMatches(db, page.q, cap)]);
  return counted > cap ? { items, total: cap, totalCapped: true } : { items, total: counted };
}

/** Documents in the trash (a small count, from the trash's own index). */
export async function trashedDocumentCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom("documents")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("deleted_at", "is not", null)
    .executeTakeFirstOrThrow();
  return row.n;
}

async function liveDocumentCount(db: Db): Promise<number> {
  const [counts, trashed] = await Promise.all([tableCounts(db, ["documents"]), trashedDocumentCount(db)]);
  return counts.documents - trashed;
}

/** Every user's trash (the admin's), most recently deleted first; `q` as in the documents list. */
export async function listAllTrash(db: Db, scope: FirmScope, page: PageWindow) {
  const [items, count] = await Promise.all([
    matchingDocuments(db, page.q, true)
      .where(inFirmScope(scope, "documents.account_id"))
      .leftJoin("folders", (join) =>
        join.onRef("folders.id", "=", "documents.trashed_from_folder_id").onRef("folders.account_id", "=", "documents.account_id"),
      )
      .select([
        "documents.id",
        "documents.original_filename",
        "documents.upload_date",
        "documents.file_size",
        "folders.id as folder_id",
        "documents.content_type",
        ...accountPersonColumns,
        "documents.deleted_at",
        fromFirm,
        uploadedByName,
      ])
      .orderBy("documents.deleted_at", "desc")
      .orderBy("documents.id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    documentMatches(db, page.q, true)
      .where(inFirmScope(scope, "documents.account_id"))
      .select(sql<number>`count(*)::int`.as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: items.map((row) => ({ ...row, deleted_at: row.deleted_at! })), total: count.total };
}

/**
 * Each person's storage as the firm's users list shows it: their account's (the one the firm's
 * paths mean by them, accountForPerson) quota and the bytes its documents take. A person in no
 * account, or in several they do not own one of, has none.
 */
export async function storageOfUsersForFirm(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom("account_contacts as c")
    .innerJoin("accounts", "accounts.id", "c.account_id")
    .select((eb) => [
      "c.user_id as id",
      "accounts.storage_quota_mb",
      eb
        .selectFrom("documents")
        .select(sql<number>`coalesce(sum(file_size), 0)::bigint`.as("used"))
        .whereRef("documents.account_id", "=", "accounts.id")
        .$asScalar()
        .as("used_bytes"),
    ])
    .where("c.user_id", "in", ids)
    .orderBy(sql`c.role = 'owner'`, "desc")
    .execute();
}

export async function setStorageQuotaForFirm(db: Db, accountId: string, quotaMb: number | null) {
  return db.updateTable("accounts").set({ storage_quota_mb: quotaMb }).where("id", "=", accountId).returning("id").executeTakeFirst();
}
