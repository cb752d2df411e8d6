import { z } from "zod";
import { idSchema, nameText } from "../shared-schemas.ts";

export const FOLDER_COLORS = ["#3B82F6", "#EF4444", "#10B981", "#F59E0B", "#8B5CF6", "#EC4899"] as const;
export const DEFAULT_FOLDER_COLOR = FOLDER_COLORS[0];

const folderName = nameText("Folder name is required").min(1, "Folder name is required").max(100, "Folder name must be at most 100 characters");
const folderColor = z.enum(FOLDER_COLORS, { error: `Color must be one of ${FOLDER_COLORS.join(", ")}` });

export const createFolderInput = z.object({
  name: folderName,
  parent_folder_id: idSchema.nullish().transform((v) => v ?? null),
  color: folderColor.default(DEFAULT_FOLDER_COLOR),
  /**
   * "Only me and the firm" (docs/decisions.md, "Private folders"): a person of the account keeps it
   * from the account's other people. A folder made inside a private folder is private to the same
   * person whatever this says. The firm's folders in a client's tree are never private.
   */
  private: z.boolean({ error: "private must be true or false" }).optional(),
});
export type CreateFolderInput = z.infer<typeof createFolderInput>;

const folderChanges = z.object({
  name: folderName.optional(),
  color: folderColor.optional(),
  /** null: to the root. */
  parent_folder_id: idSchema.nullable().optional(),
});
const somethingToChange = (v: z.infer<typeof folderChanges>) => v.name !== undefined || v.color !== undefined || v.parent_folder_id !== undefined;
const NOTHING_TO_CHANGE_FOLDER = "Nothing to change: give a name, a color or a parent_folder_id";
/** PATCH /api/folders/:id's body: the id is in the path. */
export const updateFolderBody = folderChanges.refine(somethingToChange, NOTHING_TO_CHANGE_FOLDER);
export const updateFolderInput = folderChanges.extend({ id: idSchema }).refine(somethingToChange, NOTHING_TO_CHANGE_FOLDER);
export type UpdateFolderInput = z.infer<typeof updateFolderInput>;

export const folderOutput = z.object({
  id: z.string(),
  name: z.string(),
  parent_folder_id: z.string().nullable(),
  color: z.string(),
  /** Seen only by the person who made it private and the firm; a client reads only their own private folders. */
  is_private: z.boolean(),
});
export type Folder = z.infer<typeof folderOutput>;
