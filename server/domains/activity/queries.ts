// Reading the activity trail: keyset pages newest first, ordered by (occurred_at, id). The cursor
// names the last row's exact position: occurred_at as epoch microseconds (timestamptz's own
// precision, so rows a millisecond apart are neither skipped nor repeated) and its id.
import { TRPCError } from "@trpc/server";
import { sql } from "kysely";
import type { Db } from "../../db/types.ts";
import { documentSeenBy } from "../documents/queries.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";
import { messageVisibleTo } from "../messages/queries.ts";
import type { ActivityAction } from "./record.ts";
import type { ActivityEventItem } from "./schemas.ts";

/** `scope`: the accounts whose events the reader may see (firm-scope.ts); a client's own trail is narrowed by `client_id`. */
export type ActivityFilters = {
  scope: FirmScope;
  client_id?: string;
  actor_id?: string;
  action?: ActivityAction;
  /** Only these actions (the access log's sign-ins, downloads, previews and exports). */
  actions?: readonly ActivityAction[];
  from?: Date;
  to?: Date;
  /** Actions left out (a client's own trail leaves out the firm's private ones). */
  without?: readonly ActivityAction[];
  /**
   * A client person's own trail: the messages of another person's private conversation leave no
   * trace in it (docs/decisions.md, "Private conversations").
   */
  reader_id?: string;
};

type Position = { micros: string; id: string };

const CURSOR = /^(-?\d{1,19})_(\d{1,19})$/;
// What a cursor may name, so a forged one is a 422 rather than a query the database refuses: a
// position within the dates the filters accept (schemas.ts), and an id within bigint.
const MAX_CURSOR_MICROS = 253402300800000000n;
const MAX_BIGINT = 9223372036854775807n;

export function encodeCursor(position: Position): string {
  return `${position.micros}_${position.id}`;
}

export function decodeCursor(cursor: string): Position {
  const match = CURSOR.exec(cursor);
  if (!match || !namesARow(BigInt(match[1]!), BigInt(match[2]!))) throw new TRPCError({ code: "BAD_REQUEST", message: "cursor is not valid" });
  return { micros: match[1]!, id: match[2]! };
}

function namesARow(micros: bigint, id: bigint): boolean {
  return micros >= -MAX_CURSOR_MICROS && micros <= MAX_CURSOR_MICROS && id <= MAX_BIGINT;
}

/** The firm's CSV export's columns, in order: every column of an event but its id and the actor's id. */
export const CSV_COLUMNS = [
  "occurred_at",
  "client_label",
  "client_id",
  "actor_role",
  "actor_label",
  "action",
  "target_type",
  "target_id",
  "detail",
  "ip",
  "user_agent",
] as const;

/** The firm's events kept without an account that still name a client: shown only to those who reach every account. */
const CLIENT_NAMING_FIRM_ACTIONS: ActivityAction[] = [
  "invitation.create",
  "invitation.resend",
  "invitation.revoke",
  "invitation.accept",
  "account.assign",
];

/** One page of the trail under `filters`, after `cursor` (newest first), and the cursor of the next page. */
export async function activityPage(
  db: Db,
  filters: ActivityFilters,
  page: { limit: number; cursor?: string | null },
): Promise<{ items: (ActivityEventItem & { actor_id: string | null })[]; next_cursor: string | null }> {
  const after = page.cursor ? decodeCursor(page.cursor) : null;
  let query = db.selectFrom("activity_events").select([
    sql<string>`id::text`.as("id"),
    sql<string>`(extract(epoch from occurred_at) * 1000000)::bigint::text`.as("micros"),
    "actor_id",
    // The account, still called client_id in the answers and the CSV (docs/decisions.md, "Client accounts (issue 32)").
    ...CSV_COLUMNS.map((column) => (column === "client_id" ? ("account_id as client_id" as const) : column)),
  ]);
  // Staff who reach only assigned accounts see those accounts' events and the firm's own (settings,
  // site, team), but not the firm's events that name a client of no account row (invitations, assignments).
  if (!filters.scope.all) {
    query = query.where((eb) =>
      eb.or([
        inFirmScope(filters.scope, "activity_events.account_id"),
        eb.and([eb("activity_events.account_id", "is", null), eb("activity_events.action", "not in", CLIENT_NAMING_FIRM_ACTIONS)]),
      ]),
    );
  }
  if (filters.client_id) query = query.where("account_id", "=", filters.client_id);
  if (filters.actor_id) query = query.where("actor_id", "=", filters.actor_id);
  if (filters.action) query = query.where("action", "=", filters.action);
  if (filters.actions) query = query.where("action", "in", [...filters.actions]);
  if (filters.without?.length) query = query.where("action", "not in", [...filters.without]);
  if (filters.reader_id) {
    const reader = filters.reader_id;
    // The messages domain's own rule of who reads a message, not a second copy of it.
    query = query.where(
      sql<boolean>`not exists (
        select 1 from messages
        where activity_events.target_type = 'message' and messages.id::text = activity_events.target_id
          and not ${messageVisibleTo(reader)}
      )`,
    );
    // Nor an event about another person's private folder (docs/decisions.md, "Private folders").
    query = query.where(
      sql<boolean>`not exists (
        select 1 from folders f
        where activity_events.target_type = 'folder' and f.id::text = activity_events.target_id
          and f.is_private and f.private_to is distinct from ${reader}::uuid
      )`,
    );
    // Nor an event about a document the reader does not see (documents/queries.ts, documentSeenBy).
    query = query.where(
      sql<boolean>`not exists (
        select 1 from documents d
        where activity_events.target_type = 'document' and d.id::text = activity_events.target_id and not ${documentSeenBy(reader, "d")}
      )`,
    );
  }
  if (filters.from) query = query.where("occurred_at", ">=", filters.from);
  if (filters.to) query = query.where("occurred_at", "<", filters.to);
  if (after) {
    query = query.where(
      sql<boolean>`(occurred_at, activity_events.id) < (timestamptz 'epoch' + ${after.micros}::bigint * interval '1 microsecond', ${after.id}::bigint)`,
    );
  }
  const rows = await query
    .orderBy("occurred_at", "desc")
    // The table's bigint, not the text alias of the same name (which would sort "9" after "10").
    .orderBy(sql`activity_events.id`, "desc")
    .limit(page.limit + 1)
    .execute();
  const more = rows.length > page.limit;
  const kept = more ? rows.slice(0, page.limit) : rows;
  const last = kept.at(-1);
  return {
    items: kept.map(({ micros: _micros, detail, ...row }) => ({
      ...row,
      detail: (typeof detail === "string" ? JSON.parse(detail) : detail) as Record<string, unknown>,
    })),
    next_cursor: more && last ? encodeCursor({ micros: last.micros, id: last.id }) : null,
  };
}

const STAFF_NAMES_FOR_CLIENTS = "staff_names_in_client_activity";

/** Whether a client's own trail names the staff member (their display name) rather than "Your firm". */
export async function staffNamesForClients(db: Db): Promise<boolean> {
  const row = await db.selectFrom("firm_settings").select("value").where("key", "=", STAFF_NAMES_FOR_CLIENTS).executeTakeFirst();
  return row?.value === "true";
}

export async function setStaffNamesForClients(db: Db, on: boolean, now: Date): Promise<void> {
  const value = String(on);
  await db
    .insertInto("firm_settings")
    .values({ key: STAFF_NAMES_FOR_CLIENTS, value, updated_at: now })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
    .execute();
}

/** The display names of the given staff accounts that still exist. */
export async function staffDisplayNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom("users").select(["id", "name"]).where("id", "in", ids).where("is_admin", "=", true).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** A person as the firm's views name them: `display` is their name, with their username (or email) beside it when another person has the same name. */
export type FirmPersonName = { display: string; username: string | null; email: string };

/**
 * How the firm's pages name the people of the trail, the access report and a signature's trail
 * (issue 48): by their name now, the login name only where two people share a name. People deleted
 * since are missing from the map: the row's recorded label names them.
 */
export async function firmDisplayNames(db: Db, ids: ReadonlyArray<string | null>): Promise<Map<string, FirmPersonName>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom("users").select(["id", "name", "username", "email"]).where("id", "in", wanted).execute();
  if (rows.length === 0) return new Map();
  const names = [...new Set(rows.map((row) => row.name))];
  const shared = await db
    .selectFrom("users")
    .select("name")
    .where("name", "in", names)
    .groupBy("name")
    .having((eb) => eb.fn.countAll(), ">", 1)
    .execute();
  const sharedNames = new Set(shared.map((row) => row.name));
  return new Map(
    rows.map((row) => [
      row.id,
      { display: sharedNames.has(row.name) ? `${row.name} (${row.username ?? row.email})` : row.name, username: row.username, email: row.email },
    ]),
  );
}

/** The names of the given clients that still exist: an account's people see each other's by it. */
export async function clientDisplayNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom("users").select(["id", "name"]).where("id", "in", ids).where("is_admin", "=", false).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}
