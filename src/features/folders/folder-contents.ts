const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "3 documents and 1 folder", "1 document", "2 folders": what a folder holds, in words. */
export function describeContents(documents: number, folders: number): string {
  const parts = [documents > 0 && count(documents, "document", "documents"), folders > 0 && count(folders, "folder", "folders")];
  return parts.filter(Boolean).join(" and ");
}
