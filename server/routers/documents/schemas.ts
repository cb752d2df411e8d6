import { z } from "zod";
import { idSchema } from "../folders/schemas.ts";

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const FILE_TOO_LARGE = "File is larger than 10MB";

export const folderDocumentsInput = z.object({ folder_id: idSchema });
export const documentIdInput = z.object({ id: idSchema });

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
