import { z } from "zod";
import { idSchema, nameText } from "../shared-schemas.ts";

/** open: waiting for the client; submitted: the client says it is all there; done: the firm closed it. */
export const REQUEST_STATUSES = ["open", "submitted", "done"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
const statusSchema = z.enum(REQUEST_STATUSES, { error: "Status must be open, submitted or done" });

export const REQUEST_NOT_FOUND = "Request not found";
export const NOTHING_ATTACHED = "Upload at least one document for this request before marking it submitted";
export const REQUEST_NOT_OPEN = "This request is no longer open for uploads";
export const ALREADY_SUBMITTED = "This request is already submitted";

const title = nameText("Title is required").min(1, "Title is required").max(200, "Title must be at most 200 characters");
const description = z.string({ error: "Description must be text" }).trim().max(5000, "Description must be at most 5000 characters");
const comment = z.string({ error: "Comment must be text" }).trim().max(5000, "Comment must be at most 5000 characters");
/** A day on the firm's calendar. */
const dueDate = z.iso.date("Due date must be a date (YYYY-MM-DD)");

/** Whom a firm path acts on: the account (`account_id`), or a person resolved to theirs (`user_id`; 409 if ambiguous). */
const clientRef = { user_id: idSchema.optional(), account_id: idSchema.optional() };
const oneClient = (v: { user_id?: string; account_id?: string }) => v.user_id !== undefined || v.account_id !== undefined;
const ONE_CLIENT = { message: "Give user_id or account_id", path: ["account_id"] };

export const createRequestInput = z
  .object({
    ...clientRef,
    title,
    description: description.default(""),
    due_date: dueDate.nullish().transform((v) => v ?? null),
    /** One of that client's folders: the uploads for the request go there. */
    folder_id: idSchema.nullish().transform((v) => v ?? null),
  })
  .refine(oneClient, ONE_CLIENT);
export type CreateRequestInput = z.infer<typeof createRequestInput>;

/** PATCH /api/admin/requests/:id's body: the id is in the path. */
export const updateRequestBody = z.object({
  status: statusSchema,
  /** The firm's answer, shown to the client; an empty one clears it. */
  comment: comment.optional(),
});
export const updateRequestInput = updateRequestBody.extend({ id: idSchema });
export type UpdateRequestInput = z.infer<typeof updateRequestInput>;

export const adminRequestListInput = z.object({
  /** Part of the title, or of the client's name, username or email. */
  q: z.string().trim().max(200, "Search text must be at most 200 characters").optional(),
  user_id: idSchema.optional(),
  account_id: idSchema.optional(),
  status: statusSchema.optional(),
  limit: z.coerce.number().int().min(1, "limit must be 1 to 200").max(200, "limit must be 1 to 200").default(50),
  cursor: z.coerce.number().int().min(0).max(10_000_000).optional(),
});
export type AdminRequestListInput = z.infer<typeof adminRequestListInput>;

export const requestFoldersInput = z.object(clientRef).refine(oneClient, ONE_CLIENT);

const requestFields = {
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** YYYY-MM-DD on the firm's calendar; null: no due date. */
  due_date: z.string().nullable(),
  /** Open and past its due date on the firm's calendar. */
  overdue: z.boolean(),
  status: statusSchema,
  folder_id: z.string().nullable(),
  folder_name: z.string().nullable(),
  comment: z.string().nullable(),
  created_at: z.date(),
  updated_at: z.date(),
  submitted_at: z.date().nullable(),
  done_at: z.date().nullable(),
};

const attachedDocument = z.object({
  id: z.string(),
  original_filename: z.string(),
  file_size: z.number(),
  content_type: z.string(),
  upload_date: z.date(),
});

/** The client's view: their request with the documents they attached (live ones). */
export const clientRequestOutput = z.object({ ...requestFields, documents: z.array(attachedDocument) });
export type ClientRequest = z.infer<typeof clientRequestOutput>;

/** The firm's view: whose request it is and how many live documents are attached. */
export const adminRequestOutput = z.object({
  ...requestFields,
  /** The account's first owner (the account's id while nobody has joined it). */
  user_id: z.string(),
  account_id: z.string(),
  /** The client as the firm names them: username, else email. */
  client_label: z.string(),
  client_name: z.string(),
  document_count: z.number(),
});
export type AdminRequest = z.infer<typeof adminRequestOutput>;

/** A folder of the client, with its path from the root ("Taxes / 2025"), for the firm's folder picker. */
export const requestFolderOutput = z.object({ id: z.string(), path: z.string() });
export type RequestFolder = z.infer<typeof requestFolderOutput>;
