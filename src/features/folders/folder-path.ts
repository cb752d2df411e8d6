import type { Folder } from "@server/domains/folders/schemas.ts";

type FolderNode = Pick<Folder, "id" | "name" | "parent_folder_id">;

/**
 * The breadcrumb of a folder, from the top-level folder down to the folder itself, following
 * `parent_folder_id`. Empty for the root or for an id that is not in the list.
 */
export function folderPath<T extends FolderNode>(folders: readonly T[], folderId: string | null): T[] {
  const byId = new Map(folders.map((folder) => [folder.id, folder]));
  const path: T[] = [];
  const seen = new Set<string>();
  let current = folderId ? byId.get(folderId) : undefined;
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.unshift(current);
    current = current.parent_folder_id ? byId.get(current.parent_folder_id) : undefined;
  }
  return path;
}

/** The folders directly inside `parentId` (null: the root), sorted by name. */
export function childFolders<T extends FolderNode>(folders: readonly T[], parentId: string | null): T[] {
  return folders
    .filter((folder) => folder.parent_folder_id === parentId)
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base", numeric: true }));
}
