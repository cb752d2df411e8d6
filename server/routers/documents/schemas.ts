import { z } from "zod";
import { idSchema } from "../shared-schemas.ts";

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const FILE_TOO_LARGE = "File is larger than 10MB";
export const STORAGE_QUOTA_EXCEEDED = "Storage quota exceeded";
/** Quotas are set in MB of 1024 * 1024 bytes, so the default 5120 MB reads as 5 GB. */
export const BYTES_PER_MB = 1024 * 1024;

export const folderDocumentsInput = z.object({ folder_id: idSchema });

/** The multipart form's fields besides `file` (validated after busboy has read them). */
export const uploadFieldsInput = z.object({
  folder_id: z
    .union([idSchema, z.literal("")])
    .nullish()
    .transform((v) => (v ? v : null)),
});

export const documentOutput = z.object({
  id: z.string(),
  original_filename: z.string(),
  upload_date: z.date(),
  file_size: z.number(),
  folder_id: z.string().nullable(),
  content_type: z.string(),
});
export type DocumentItem = z.infer<typeof documentOutput>;

/** What the caller has stored and may store, in bytes. */
export const storageUsageOutput = z.object({ used_bytes: z.number(), quota_bytes: z.number() });
export type StorageUsage = z.infer<typeof storageUsageOutput>;
