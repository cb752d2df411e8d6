// Reading the Inbox: newest activity first, keyset-paged by (last_at, id) with the same cursor
// form as the activity trail (epoch microseconds and id).
import { sql } from "kysely";
import { decodeCursor, encodeCursor } from "../activity/queries.ts";
import type { Db, InboxItemKind } from "../../db/types.ts";
import { type FirmScope, inFirmScope } from "../../trpc/firm-scope.ts";
import type { InboxInput, InboxPage } from "./schemas.ts";

/** An item about an account the reader reaches, or about no account (a prospect's consultation request). */
function inReach(scope: FirmScope) {
  return sql<boolean>`(inbox_items.account_id is null or ${inFirmScope(scope, "inbox_items.account_id")})`;
}

/** `kinds`: the kinds of item the reader may see (their rights; inbox/service.ts); `scope`: the accounts they reach. */
export async function inboxPage(db: Db, scope: FirmScope, input: InboxInput, kinds: InboxItemKind[]): Promise<Omit<InboxPage, "unread">> {
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  let query = db
    .selectFrom("inbox_items")
    .leftJoin("accounts", "accounts.id", "inbox_items.account_id")
    .leftJoin("users as reader", "reader.id", "inbox_items.read_by")
    .leftJoin("users as actor", "actor.id", "inbox_items.actor_id")
    .select([
      sql<string>`inbox_items.id::text`.as("id"),
      "inbox_items.kind",
      // The account, still called client_id in the answer (docs/decisions.md, "Client accounts (issue 32)").
      "inbox_items.account_id as client_id",
      "accounts.name as client_label",
      "inbox_items.subject_id",
      "inbox_items.summary",
      "inbox_items.first_at",
      "inbox_items.last_at",
      sql<string>`(extract(epoch from inbox_items.last_at) * 1000000)::bigint::text`.as("micros"),
      sql<boolean>`inbox_items.read_at is not null`.as("read"),
      "reader.name as read_by_name",
      // People by their name, never their login (issue 34).
      "actor.name as actor_name",
    ])
    .where("inbox_items.kind", "in", kinds)
    .where(inReach(scope));
  if (input.show === "unread") query = query.where("inbox_items.read_at", "is", null);
  if (after) {
    query = query.where(
      sql<boolean>`(inbox_items.last_at, inbox_items.id) < (timestamptz 'epoch' + ${after.micros}::bigint * interval '1 microsecond', ${after.id}::bigint)`,
    );
  }
  const rows = await query
    .orderBy("inbox_items.last_at", "desc")
    .orderBy(sql`inbox_items.id`, "desc")
    .limit(input.limit + 1)
    .execute();
  const more = rows.length > input.limit;
  const kept = more ? rows.slice(0, input.limit) : rows;
  const last = kept.at(-1);
  return {
    items: kept.map(({ micros: _micros, summary, ...row }) => ({
      ...row,
      summary: (typeof summary === "string" ? JSON.parse(summary) : summary) as Record<string, unknown>,
    })),
    next_cursor: more && last ? encodeCursor({ micros: last.micros, id: last.id }) : null,
  };
}

export async function unreadCount(db: Db, scope: FirmScope, kinds: InboxItemKind[]): Promise<number> {
  const { count } = await db
    .selectFrom("inbox_items")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("read_at", "is", null)
    .where("kind", "in", kinds)
    .where(inReach(scope))
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function markRead(
  db: Db,
  scope: FirmScope,
  read: { ids: string[] | "all"; at: Date; by: string },
  kinds: InboxItemKind[],
): Promise<void> {
  const { ids } = read;
  let query = db
    .updateTable("inbox_items")
    .set({ read_at: read.at, read_by: read.by })
    .where("read_at", "is", null)
    .where("kind", "in", kinds)
    .where(inReach(scope));
  if (ids !== "all") query = query.where(sql<boolean>`id = any(${ids}::bigint[])`);
  await query.execute();
}

// Putting things in the firm's Inbox, always with the change's own transaction: an item is there
// exactly when what it tells of happened. Duplicates collapse (docs/decisions.md, "The Inbox is where
// work arrives (issue 34)"): one person's uploads to one account within ten minutes of the last are
// one item ("uploaded 10 files"); a conversation's unread messages are one item; a second arrival
// about the same appointment, request or signature request replaces what the unread item said of it.

const UPLOAD_BATCH_MINUTES = 10;
/** Names kept on an upload item, for the Inbox's line; the count says how many there were. */
const UPLOAD_NAMES_KEPT = 5;
/** The start of the latest message kept on a message item, for the line and the reply in place. */
const MESSAGE_EXCERPT_CHARS = 280;

/** Kinds about one appointment: the latest of them is what the unread item says. */
const APPOINTMENT_KINDS: InboxItemKind[] = ["appointment_request", "appointment_booked", "appointment_rescheduled", "appointment_cancelled"];
/** Kinds about one signature request: likewise, the unread item says where it stands now (viewed, signed, completed). */
const SIGNATURE_KINDS: InboxItemKind[] = ["signature_viewed", "signature_signed", "signature_declined", "signature_completed"];
const GROUPS = [APPOINTMENT_KINDS, SIGNATURE_KINDS];

type InboxItem = {
  kind: Exclude<InboxItemKind, "upload" | "message">;
  account_id: string | null;
  /** The person who acted; null for a visitor (a consultation request). */
  actor_id: string | null;
  subject_id: string;
  summary: Record<string, unknown>;
  at: Date;
};

export async function addToInbox(db: Db, item: InboxItem): Promise<void> {
  if (item.account_id) {
    const kinds = GROUPS.find((group) => group.includes(item.kind)) ?? [item.kind];
    const joined = await db
      .updateTable("inbox_items")
      .set({ kind: item.kind, actor_id: item.actor_id, summary: JSON.stringify(item.summary), last_at: item.at })
      .where(
        "id",
        "=",
        db
          .selectFrom("inbox_items")
          .select("id")
          .where("account_id", "=", item.account_id)
          .where("subject_id", "=", item.subject_id)
          .where("kind", "in", kinds)
          .where("read_at", "is", null)
          .orderBy("last_at", "desc")
          .limit(1),
      )
      .executeTakeFirst();
    if (joined.numUpdatedRows > 0n) return;
  }
  await db
    .insertInto("inbox_items")
    .values({
      kind: item.kind,
      account_id: item.account_id,
      actor_id: item.actor_id,
      subject_id: item.subject_id,
      summary: JSON.stringify(item.summary),
      first_at: item.at,
      last_at: item.at,
    })
    .execute();
}

/** A client's own upload: joins the same person's unread upload item for the account of the last ten minutes, or starts one. */
export async function addUploadToInbox(
  db: Db,
  upload: { account_id: string; actor_id: string; document_id: string; name: string; at: Date },
): Promise<void> {
  const joined = await db
    .updateTable("inbox_items")
    .set({
      subject_id: upload.document_id,
      last_at: upload.at,
      summary: sql`jsonb_build_object(
        'count', (summary ->> 'count')::int + 1,
        'names', case when jsonb_array_length(summary -> 'names') < ${UPLOAD_NAMES_KEPT}
                      then (summary -> 'names') || to_jsonb(${upload.name}::text)
                      else summary -> 'names' end)`,
    })
    .where(
      "id",
      "=",
      db
        .selectFrom("inbox_items")
        .select("id")
        .where("kind", "=", "upload")
        .where("account_id", "=", upload.account_id)
        .where("actor_id", "=", upload.actor_id)
        .where("read_at", "is", null)
        .where("last_at", ">", new Date(upload.at.getTime() - UPLOAD_BATCH_MINUTES * 60_000))
        .orderBy("last_at", "desc")
        .limit(1),
    )
    .executeTakeFirst();
  if (joined.numUpdatedRows > 0n) return;
  await db
    .insertInto("inbox_items")
    .values({
      kind: "upload",
      account_id: upload.account_id,
      actor_id: upload.actor_id,
      subject_id: upload.document_id,
      summary: JSON.stringify({ count: 1, names: [upload.name] }),
      first_at: upload.at,
      last_at: upload.at,
    })
    .execute();
}

/**
 * A client's message: joins the conversation's unread message item (`count`, the latest message's
 * start as `text`, its attachments), or starts one. The firm's reading or answering the conversation
 * marks it read (`markMessagesItemRead`).
 */
export async function addMessageToInbox(
  db: Db,
  message: { account_id: string; actor_id: string; message_id: string; text: string; attachments: number; at: Date },
): Promise<void> {
  const text = message.text.slice(0, MESSAGE_EXCERPT_CHARS);
  const joined = await db
    .updateTable("inbox_items")
    .set({
      subject_id: message.message_id,
      actor_id: message.actor_id,
      last_at: message.at,
      summary: sql`jsonb_build_object('count', (summary ->> 'count')::int + 1, 'text', ${text}::text, 'attachments', ${message.attachments}::int)`,
    })
    .where("kind", "=", "message")
    .where("account_id", "=", message.account_id)
    .where("read_at", "is", null)
    .executeTakeFirst();
  if (joined.numUpdatedRows > 0n) return;
  await db
    .insertInto("inbox_items")
    .values({
      kind: "message",
      account_id: message.account_id,
      actor_id: message.actor_id,
      subject_id: message.message_id,
      summary: JSON.stringify({ count: 1, text, attachments: message.attachments }),
      first_at: message.at,
      last_at: message.at,
    })
    .execute();
}

/** The firm read or answered an account's conversation: its message item is read too. */
export async function markMessagesItemRead(db: Db, read: { account_id: string; at: Date; by: string }): Promise<void> {
  await db
    .updateTable("inbox_items")
    .set({ read_at: read.at, read_by: read.by })
    .where("kind", "=", "message")
    .where("account_id", "=", read.account_id)
    .where("read_at", "is", null)
    .execute();
}
