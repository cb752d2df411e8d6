import { z } from "zod";
import { idSchema } from "../shared-schemas.ts";

export const FOLDER_COLORS = ["#3B82F6", "#EF4444", "#10B981", "#F59E0B", "#8B5CF6", "#EC4899"] as const;
export const DEFAULT_FOLDER_COLOR = FOLDER_COLORS[0];

export const createFolderInput = z.object({
  name: z
    .string({ error: "Folder name is required" })
    .trim()
    .min(1, "Folder name is required")
    .max(100, "Folder name must be at most 100 characters"),
  parent_folder_id: idSchema.nullish().transform((v) => v ?? null),
  color: z.enum(FOLDER_COLORS, { error: `Color must be one of ${FOLDER_COLORS.join(", ")}` }).default(DEFAULT_FOLDER_COLOR),
});
export type CreateFolderInput = z.infer<typeof createFolderInput>;

export const folderOutput = z.object({
  id: z.string(),
  name: z.string(),
  parent_folder_id: z.string().nullable(),
  color: z.string(),
});
export type Folder = z.infer<typeof folderOutput>;
