import { z } from "zod";

export const INBOX_KINDS = [
  "upload",
  "request_submitted",
  "organizer_submitted",
  "consultation",
  "appointment_request",
  "message",
  "appointment_booked",
  "appointment_rescheduled",
  "appointment_cancelled",
  "signature_viewed",
  "signature_signed",
  "signature_declined",
  "signature_completed",
] as const;

/**
 * One Inbox item. `summary` by kind: upload `{ count, names }` (at most five names), request_submitted
 * and organizer_submitted `{ title }`, consultation `{ name, service }`, appointment_request, appointment_booked and
 * appointment_cancelled `{ title, start }`, appointment_rescheduled `{ title, start, previous_start }`,
 * message `{ count, text, attachments }` (the latest message's start), signature_viewed, signature_signed,
 * signature_declined and signature_completed `{ title }` (the request's; a decline adds `reason`). `client_label` is the account's
 * name and `actor_name` the name of the person who acted (null for a visitor or a deleted person).
 */
const inboxItemOutput = z.object({
  id: z.string(),
  kind: z.enum(INBOX_KINDS),
  client_id: z.string().nullable(),
  client_label: z.string().nullable(),
  subject_id: z.string(),
  summary: z.record(z.string(), z.unknown()),
  first_at: z.date(),
  last_at: z.date(),
  read: z.boolean(),
  /** Who on the firm's side marked it read (null while unread, or once they are deleted). */
  read_by_name: z.string().nullable(),
  actor_name: z.string().nullable(),
});
export type InboxItemView = z.infer<typeof inboxItemOutput>;

export const inboxPageOutput = z.object({
  items: z.array(inboxItemOutput),
  next_cursor: z.string().nullable(),
  /** Unread items in the whole Inbox (not only on this page), for the tab's count. */
  unread: z.number().int(),
});
export type InboxPage = z.infer<typeof inboxPageOutput>;

export const inboxInput = z.object({
  limit: z.coerce.number().int().min(1, "limit must be 1 to 100").max(100, "limit must be 1 to 100").default(30),
  cursor: z
    .string()
    .max(100, "cursor is not valid")
    .regex(/^-?\d{1,19}_\d{1,19}$/, "cursor is not valid")
    .optional(),
  show: z.enum(["all", "unread"], { error: "show must be all or unread" }).default("all"),
});
export type InboxInput = z.infer<typeof inboxInput>;

/** Marks the named items read, or every item when `all` is true. */
export const markInboxReadInput = z.union(
  [
    z.object({
      ids: z
        .array(z.string().regex(/^\d{1,19}$/, "ids must be Inbox item ids"))
        .min(1, "ids must name at least one item")
        .max(200, "at most 200 ids"),
    }),
    z.object({ all: z.literal(true) }),
  ],
  { error: "Send ids (a list of Inbox item ids) or all: true" },
);
export type MarkInboxReadInput = z.infer<typeof markInboxReadInput>;

export const inboxUnreadOutput = z.object({ unread: z.number().int() });
