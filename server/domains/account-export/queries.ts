// Every row of one account an export carries (documents are planned by documents/archive.ts).
// Unpaged: an account's messages, requests and appointments are text, small beside its documents.
import type { Db } from "../../db/types.ts";
import { documentSeenBy } from "../documents/queries.ts";
import { messageVisibleTo } from "../messages/queries.ts";

/**
 * The account's conversations, oldest first, with who wrote each message. `readerId`: a client
 * person's export, which holds the account's conversation and their own private one, never another
 * person's (docs/decisions.md, "Private conversations"); null for the firm's, which holds them all.
 */
export function exportMessages(db: Db, accountId: string, readerId: string | null) {
  let query = db
    .selectFrom("messages")
    .leftJoin("users", "users.id", "messages.sender_id")
    .select(["messages.id", "messages.created_at", "messages.sender_role", "users.name as sender_name", "messages.text"])
    .where("messages.account_id", "=", accountId);
  if (readerId !== null) query = query.where(messageVisibleTo(readerId));
  return query.orderBy("messages.seq").execute();
}

/** The names of the documents attached to those messages (those still there). */
export function exportMessageAttachments(db: Db, accountId: string, readerId: string | null) {
  let query = db
    .selectFrom("message_attachments")
    .innerJoin("messages", "messages.id", "message_attachments.message_id")
    .innerJoin("documents", "documents.id", "message_attachments.document_id")
    .select(["message_attachments.message_id", "documents.id as document_id", "documents.original_filename"])
    .where("messages.account_id", "=", accountId);
  if (readerId !== null) query = query.where(messageVisibleTo(readerId)).where(documentSeenBy(readerId));
  return query.where("documents.deleted_at", "is", null).orderBy("documents.original_filename").orderBy("documents.id").execute();
}

/** Every document request of the account, oldest first. */
export function exportRequests(db: Db, accountId: string) {
  return db
    .selectFrom("document_requests")
    .leftJoin("folders", "folders.id", "document_requests.folder_id")
    .select([
      "document_requests.id",
      "document_requests.title",
      "document_requests.description",
      "document_requests.status",
      "document_requests.due_date",
      "folders.name as folder_name",
      "document_requests.comment",
      "document_requests.created_at",
      "document_requests.submitted_at",
      "document_requests.done_at",
    ])
    .where("document_requests.account_id", "=", accountId)
    .orderBy("document_requests.created_at")
    .orderBy("document_requests.id")
    .execute();
}

/** The checklist items of the account's requests, in their order. */
export function exportRequestItems(db: Db, accountId: string) {
  return db
    .selectFrom("document_request_items")
    .innerJoin("document_requests", "document_requests.id", "document_request_items.request_id")
    .select(["document_request_items.request_id", "document_request_items.title", "document_request_items.status", "document_request_items.done_at"])
    .where("document_requests.account_id", "=", accountId)
    .orderBy("document_request_items.request_id")
    .orderBy("document_request_items.position")
    .execute();
}

/** Every appointment of the account, oldest first. */
export function exportAppointments(db: Db, accountId: string) {
  return db
    .selectFrom("appointments")
    .leftJoin("meeting_types", "meeting_types.id", "appointments.meeting_type_id")
    .select([
      "appointments.id",
      "appointments.title",
      "appointments.description",
      "appointments.appointment_date",
      "appointments.ends_at",
      "appointments.status",
      "meeting_types.name as meeting_type",
      "meeting_types.location",
      "appointments.created_at",
    ])
    .where("appointments.account_id", "=", accountId)
    .orderBy("appointments.appointment_date")
    .orderBy("appointments.id")
    .execute();
}
