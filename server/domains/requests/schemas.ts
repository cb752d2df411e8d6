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
export const ITEM_NOT_FOUND = "Request item not found";
export const ITEM_DONE = "This item is marked done; ask the firm to reopen it to change its files";
export const ITEM_NEEDS_REQUEST = "Send request_id with request_item_id";
export const TEMPLATE_NOT_FOUND = "Template not found";
export const DOCUMENT_NOT_ON_ITEM = "Document not found on this item";

/**
 * An item of a request's checklist: open (nothing uploaded for it yet), uploaded (the client has
 * attached at least one live document) or done (the firm marked it done). Only open and done are
 * stored; uploaded is read from the documents.
 */
export const REQUEST_ITEM_STATUSES = ["open", "uploaded", "done"] as const;
export type RequestItemStatus = (typeof REQUEST_ITEM_STATUSES)[number];
/** At most this many items on one request or template. */
export const MAX_REQUEST_ITEMS = 50;

const title = nameText("Title is required").min(1, "Title is required").max(200, "Title must be at most 200 characters");
const description = z.string({ error: "Description must be text" }).trim().max(5000, "Description must be at most 5000 characters");
const comment = z.string({ error: "Comment must be text" }).trim().max(5000, "Comment must be at most 5000 characters");
/** A day on the firm's calendar. */
const dueDate = z.iso.date("Due date must be a date (YYYY-MM-DD)");

const itemTitle = nameText("Each item needs a title").min(1, "Each item needs a title").max(200, "An item's title must be at most 200 characters");
/** `[{ "title": "2025 W-2 from each employer" }, ...]`: a request's or a template's checklist. */
const itemsInput = z
  .array(z.object({ title: itemTitle }, { error: "Each item must be an object with a title" }), { error: "items must be a list of { title }" })
  .max(MAX_REQUEST_ITEMS, `At most ${MAX_REQUEST_ITEMS} items`);

/** Whom a firm path acts on: the account (`account_id`), or a person resolved to theirs (`user_id`; 409 if ambiguous). */
const clientRef = { user_id: idSchema.optional(), account_id: idSchema.optional() };
const oneClient = (v: { user_id?: string; account_id?: string }) => v.user_id !== undefined || v.account_id !== undefined;
const ONE_CLIENT = { message: "Give user_id or account_id", path: ["account_id"] };

export const createRequestInput = z
  .object({
    ...clientRef,
    /** Required unless template_id gives it. */
    title: title.optional(),
    /** Without one, the template's (with template_id), else empty. */
    description: description.optional(),
    due_date: dueDate.nullish().transform((v) => v ?? null),
    /** One of that client's folders: the uploads for the request go there. */
    folder_id: idSchema.nullish().transform((v) => v ?? null),
    /** The checklist (optional: a request without items is one list of documents, as before); without it, the template's. */
    items: itemsInput.optional(),
    /** One of the firm's request templates: what the body leaves out (title, description, items) is taken from it. */
    template_id: idSchema.optional(),
  })
  .refine(oneClient, ONE_CLIENT)
  .refine((v) => v.title !== undefined || v.template_id !== undefined, { message: "Title is required", path: ["title"] });
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

/** PATCH /api/admin/requests/:id/items/:itemId's body: the firm marks an item done or reopens it. */
export const updateRequestItemBody = z.object({
  status: z.enum(["open", "done"], { error: "Status must be open or done" }),
});
export const updateRequestItemInput = updateRequestItemBody.extend({ request_id: idSchema, item_id: idSchema });
export type UpdateRequestItemInput = z.infer<typeof updateRequestItemInput>;

/** The client takes back a document they attached to an item by mistake (it goes to their trash). */
export const removeItemDocumentInput = z.object({ request_id: idSchema, item_id: idSchema, document_id: idSchema });
export type RemoveItemDocumentInput = z.infer<typeof removeItemDocumentInput>;

/** A request the firm reuses each season. */
export const requestTemplateInput = z.object({
  title,
  /** The message the client reads with the request. */
  description: description.default(""),
  items: itemsInput.default([]),
});
export type RequestTemplateInput = z.infer<typeof requestTemplateInput>;
const templateChanges = z.object({ title: title.optional(), description: description.optional(), items: itemsInput.optional() });
const somethingToChange = (v: z.infer<typeof templateChanges>) => v.title !== undefined || v.description !== undefined || v.items !== undefined;
const NOTHING_TO_CHANGE = "Nothing to change: give a title, description or items";
/** PATCH /api/admin/request-templates/:id's body: what changes. */
export const requestTemplateChanges = templateChanges.refine(somethingToChange, NOTHING_TO_CHANGE);
export const updateRequestTemplateInput = templateChanges.extend({ id: idSchema }).refine(somethingToChange, NOTHING_TO_CHANGE);
export type UpdateRequestTemplateInput = z.infer<typeof updateRequestTemplateInput>;

export const requestTemplateOutput = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  items: z.array(z.object({ title: z.string() })),
  created_at: z.date(),
  updated_at: z.date(),
});
export type RequestTemplate = z.infer<typeof requestTemplateOutput>;

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

/** One item of the checklist, with the live documents attached to it. */
const requestItemOutput = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(REQUEST_ITEM_STATUSES),
  done_at: z.date().nullable(),
  documents: z.array(attachedDocument),
});
export type RequestItem = z.infer<typeof requestItemOutput>;

/**
 * The client's view: their request with the documents they attached (live ones, every item's
 * included) and its checklist (empty for a request without items).
 */
export const clientRequestOutput = z.object({ ...requestFields, documents: z.array(attachedDocument), items: z.array(requestItemOutput) });
export type ClientRequest = z.infer<typeof clientRequestOutput>;
/** The request after a file was taken off an item: in the trash, or (a file that also answers an organizer's question) only taken off. */
export const removedItemDocumentOutput = clientRequestOutput.extend({ removed_to_trash: z.boolean() });

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
  /** The checklist, each item with its documents (empty for a request without items). */
  items: z.array(requestItemOutput),
});
export type AdminRequest = z.infer<typeof adminRequestOutput>;

/** A folder of the client, with its path from the root ("Taxes / 2025"), for the firm's folder picker. */
export const requestFolderOutput = z.object({ id: z.string(), path: z.string() });
export type RequestFolder = z.infer<typeof requestFolderOutput>;
