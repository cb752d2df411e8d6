type TreeNode = { id: string; name: string; parent_folder_id: string | null };

const byName = (a: TreeNode, b: TreeNode) => a.name.localeCompare(b.name, undefined, { sensitivity: "base", numeric: true });

/** Every folder once, depth first and by name within each parent, with its depth (0: in the root). */
export function folderTree<T extends TreeNode>(folders: readonly T[]): Array<{ folder: T; depth: number }> {
  const children = new Map<string | null, T[]>();
  for (const folder of folders) {
    const siblings = children.get(folder.parent_folder_id) ?? [];
    siblings.push(folder);
    children.set(folder.parent_folder_id, siblings);
  }
  const rows: Array<{ folder: T; depth: number }> = [];
  const seen = new Set<string>();
  const visit = (parentId: string | null, depth: number) => {
    for (const folder of (children.get(parentId) ?? []).sort(byName)) {
      if (seen.has(folder.id)) continue;
      seen.add(folder.id);
      rows.push({ folder, depth });
      visit(folder.id, depth + 1);
    }
  };
  visit(null, 0);
  return rows;
}

/** `folderId` and every folder below it: where a folder cannot be moved to. */
export function folderAndDescendants(folders: readonly TreeNode[], folderId: string): Set<string> {
  const ids = new Set([folderId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const folder of folders) {
      if (folder.parent_folder_id && ids.has(folder.parent_folder_id) && !ids.has(folder.id)) {
        ids.add(folder.id);
        grew = true;
      }
    }
  }
  return ids;
}
