import { z } from "zod";
import { idSchema, nameText } from "../shared-schemas.ts";

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const FILE_TOO_LARGE = "File is larger than 10MB";
export const STORAGE_QUOTA_EXCEEDED = "Storage quota exceeded";
/** Quotas are set in MB of 1024 * 1024 bytes, so the default 5120 MB reads as 5 GB. */
export const BYTES_PER_MB = 1024 * 1024;

/** A trashed document is deleted for good this long after it was trashed. */
export const TRASH_RETENTION_DAYS = 30;

/**
 * The firm's delete of a client's document (into the client's trash): `legal_hold` says a legal hold
 * on the account keeps it there, never deleted for good, until the hold is lifted.
 */
export const firmTrashOutput = z.object({ success: z.literal(true), legal_hold: z.boolean() });
export type FirmTrashResult = z.infer<typeof firmTrashOutput>;
/** The stored content types a browser shows safely inline; anything else only downloads. */
export const PREVIEW_CONTENT_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf", "text/plain"] as const;
export const NO_PREVIEW = "No preview for this type of file";

export const folderDocumentsInput = z.object({ folder_id: idSchema });

export const DOCUMENT_SORTS = ["name", "date", "size"] as const;
/** Search's own order besides the lists': the best match first (a match in the name before one in the content). */
export const SEARCH_SORTS = [...DOCUMENT_SORTS, "relevance"] as const;
/** Whose documents: the ones the firm shared, or the ones the account's people uploaded. */
export const DOCUMENT_SOURCES = ["firm", "client"] as const;
export const documentSearchInput = z.object({
  /** Words in the name or in the text inside (PDFs, text files), or part of the name. */
  q: z.string().trim().max(200, "Search text must be at most 200 characters").optional(),
  sort: z.enum(SEARCH_SORTS, { error: "Sort must be name, date, size or relevance" }).default("date"),
  order: z.enum(["asc", "desc"], { error: "Order must be asc or desc" }).default("desc"),
  limit: z.coerce.number().int().min(1).max(500).default(200),
  source: z.enum(DOCUMENT_SOURCES, { error: "Source must be firm or client" }).optional(),
  /** The year it was uploaded (UTC). */
  year: z.coerce
    .number({ error: "Year must be a year such as 2025" })
    .int("Year must be a year such as 2025")
    .min(1970, "Year must be a year such as 2025")
    .max(9999, "Year must be a year such as 2025")
    .optional(),
});
export type DocumentSearchInput = z.infer<typeof documentSearchInput>;

const documentChanges = z.object({
  name: nameText("Name must be text").min(1, "Name is required").max(255, "Name must be at most 255 characters").optional(),
  /** null: the root. */
  folder_id: idSchema.nullable().optional(),
});
const somethingToChange = (v: { name?: string; folder_id?: string | null }) => v.name !== undefined || v.folder_id !== undefined;
const NOTHING_TO_CHANGE_DOCUMENT = "Nothing to change: give a name or a folder_id";
/** PATCH /api/documents/:id's body: the id is in the path. */
export const updateDocumentBody = documentChanges.refine(somethingToChange, NOTHING_TO_CHANGE_DOCUMENT);
export const updateDocumentInput = documentChanges.extend({ id: idSchema }).refine(somethingToChange, NOTHING_TO_CHANGE_DOCUMENT);
export type UpdateDocumentInput = z.infer<typeof updateDocumentInput>;

/** Which of the caller's folders to download as a ZIP; null: everything they have. */
export const zipPlanInput = z.object({ folder_id: idSchema.nullable() });

/** The multipart form's fields besides `file` (validated after busboy has read them). */
export const uploadFieldsInput = z
  .object({
    folder_id: z
      .union([idSchema, z.literal("")])
      .nullish()
      .transform((v) => (v ? v : null)),
    /** One of the uploader's open document requests: the document is attached to it and goes into its folder, if it has one. */
    request_id: z
      .union([idSchema, z.literal("")])
      .nullish()
      .transform((v) => (v ? v : null)),
    /** One item of that request's checklist (issue 34): the document is attached to the item too. Needs request_id. */
    request_item_id: z
      .union([idSchema, z.literal("")])
      .nullish()
      .transform((v) => (v ? v : null)),
    /** One of the uploader's organizers (issue 36): the document answers its file question `question_id` and goes into the organizer's folder. */
    organizer_id: z
      .union([idSchema, z.literal("")])
      .nullish()
      .transform((v) => (v ? v : null)),
    question_id: z
      .string()
      .max(64, "question_id is not a question of this organizer")
      .nullish()
      .transform((v) => (v ? v : null)),
    /**
     * The firm's upload of a PDF for a signature request it is preparing: kept from the account's
     * people until the request is sent (docs/decisions.md, "A PDF for a signature request waits for
     * the request"). Only the firm's upload route takes it.
     */
    for_signature: z
      .enum(["true", "false", ""], { message: 'for_signature is "true" or "false"' })
      .nullish()
      .transform((v) => v === "true"),
  })
  .refine((v) => v.request_item_id === null || v.request_id !== null, { message: "Send request_id with request_item_id", path: ["request_id"] })
  .refine((v) => (v.organizer_id === null) === (v.question_id === null), {
    message: "Send organizer_id and question_id together",
    path: ["question_id"],
  })
  .refine((v) => v.organizer_id === null || v.request_id === null, {
    message: "An upload answers a request or an organizer, not both",
    path: ["organizer_id"],
  });

export const documentOutput = z.object({
  id: z.string(),
  original_filename: z.string(),
  upload_date: z.date(),
  file_size: z.number(),
  folder_id: z.string().nullable(),
  content_type: z.string(),
  /** Shared by the firm (uploaded by an admin), not uploaded by the client. */
  from_firm: z.boolean(),
  /** Who uploaded it: the person's name, "From your firm" for the firm's uploads, null when unknown. */
  uploaded_by_name: z.string().nullable(),
});
export type DocumentItem = z.infer<typeof documentOutput>;

/** A folder on the way from the root to a document. */
const folderPathItem = z.object({ id: z.string(), name: z.string() });
export const documentSearchResultOutput = documentOutput.extend({
  /** From the root down to the document's folder; empty for a document in the root. */
  folder_path: z.array(folderPathItem),
  /**
   * Where the search text matched: "name" when the name matches (also when the content does),
   * "content" when only the text inside does; null without search text. Never the text itself.
   */
  matched_in: z.enum(["name", "content"]).nullable(),
});
export type DocumentSearchResult = z.infer<typeof documentSearchResultOutput>;

export const trashedDocumentOutput = documentOutput.extend({
  /** The folder it was deleted from, while that folder exists (restore puts it back there); else null. */
  folder_id: z.string().nullable(),
  deleted_at: z.date(),
  /** When it is deleted for good, unless restored first. */
  purge_at: z.date(),
});
export type TrashedDocument = z.infer<typeof trashedDocumentOutput>;

/** What the caller has stored and may store, in bytes. */
export const storageUsageOutput = z.object({ used_bytes: z.number(), quota_bytes: z.number() });
export type StorageUsage = z.infer<typeof storageUsageOutput>;
