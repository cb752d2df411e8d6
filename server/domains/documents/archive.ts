// What goes into a ZIP of a folder (or of everything): which stored objects, under which paths.
// The REST layer (server/rest/folder-archive.ts) streams it; this decides who may have what and
// makes the names safe to extract on any system.
import { TRPCError } from "@trpc/server";
import { accountClient, recordActivity } from "../activity/record.ts";
import type { Db } from "../../db/types.ts";
import type { ClientContext } from "../../trpc/context.ts";
import { listFolders } from "../folders/queries.ts";
import type { Folder } from "../folders/schemas.ts";
import { FOLDER_NOT_FOUND } from "../folders/service.ts";
import { liveDocumentsIn } from "./queries.ts";
import { stripInvisible } from "../shared-schemas.ts";
import { FALLBACK_FILENAME } from "./upload.ts";

/**
 * A file (its stored object), a file written from `content` (an account export's JSON, CSV and
 * README), or, with neither, a directory. Paths use `/` and never start with one.
 */
export type ArchiveEntry = { path: string; storage_key: string | null; content?: string; date: Date };
export type ArchivePlan = { filename: string; entries: ArchiveEntry[] };

const ALL_DOCUMENTS_NAME = "Documents";
/** Path separators, and what Windows refuses in a name. */
const UNSAFE_CHARACTERS = /[\\/:*?"<>|]/g;
/**
 * Windows' device names: `CON`, `nul.txt` or `LPT1 .pdf` (the name before its first dot, whatever the
 * case or the spaces after it) open the device instead of a file, and extracting one fails.
 */
const DEVICE_NAME = /^(?:CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|COM[0-9\u00B9\u00B2\u00B3]|LPT[0-9\u00B9\u00B2\u00B3])(?=[ .]|$)/i;

/**
 * One path segment that extracts as itself everywhere: no separators or control characters, no
 * `.` or `..`, no trailing dots or spaces (Windows drops them), no device name (`CON.txt` becomes
 * `CON_.txt`, docs/security.md, "Round 3 (issue 28)"), never empty.
 */
export function safeSegment(name: string): string {
  const cleaned = stripInvisible(name)
    .replace(UNSAFE_CHARACTERS, "_")
    .trim()
    .replace(/[. ]+$/, "")
    .replace(DEVICE_NAME, "$&_");
  return cleaned === "" ? FALLBACK_FILENAME : cleaned;
}

/**
 * The names given out in one directory. Clashes are decided without regard to case (Windows and
 * macOS extract `W-2.pdf` and `w-2.pdf` into one file), and a later one becomes `W-2 (2).pdf`.
 */
class DirectoryNames {
  private readonly taken = new Set<string>();

  claim(name: string, isFile: boolean): string {
    const dot = isFile ? name.lastIndexOf(".") : -1;
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
    let candidate = name;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}

/**
 * Safe, unique names for the items of one directory, in their order. A name that needs no cleaning
 * keeps itself; a cleaned one that now clashes yields (`a/b` cleaned to `a_b` beside a real `a_b`
 * becomes `a_b (2)`). Otherwise the earlier item keeps the plain name: subfolders (unique among
 * siblings already), then files in upload order.
 */
function claimNames(items: { name: string; isFile: boolean }[]): string[] {
  const names = new DirectoryNames();
  const cleaned = items.map((item) => safeSegment(item.name));
  const order = items.map((_, i) => i).sort((a, b) => Number(cleaned[a] !== items[a]!.name) - Number(cleaned[b] !== items[b]!.name));
  const claimed: string[] = [];
  for (const i of order) claimed[i] = names.claim(cleaned[i]!, items[i]!.isFile);
  return claimed;
}

/**
 * The account's folder `folderId` (null: everything) with all of its subfolders: every live document
 * as a file under its folder's path relative to that folder (below `under`, which ends with `/` or
 * is empty), every subfolder as a directory (so empty ones are kept). A folder of another account
 * answers like a missing one. The caller checks who asks and records the download.
 */
export async function accountArchiveEntries(db: Db, accountId: string, personId: string | null, folderId: string | null, now: Date, under: string) {
  const folders = await listFolders(db, accountId, personId);
  const top = folderId === null ? null : folders.find((f) => f.id === folderId);
  if (top === undefined) throw new TRPCError({ code: "NOT_FOUND", message: FOLDER_NOT_FOUND });

  const children = new Map<string | null, Folder[]>();
  for (const folder of folders) {
    const siblings = children.get(folder.parent_folder_id) ?? [];
    siblings.push(folder);
    children.set(folder.parent_folder_id, siblings);
  }
  // Walked with lists, not recursion: nesting has no depth limit. The sets guard against a cycle,
  // which folder moves never let happen.
  const seen = new Set<string>();
  const inScope: string[] = [];
  const pending = [top?.id ?? null];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const child of children.get(next) ?? []) {
      if (seen.has(child.id)) continue;
      seen.add(child.id);
      inScope.push(child.id);
      pending.push(child.id);
    }
  }
  const documents = await liveDocumentsIn(db, accountId, personId, top === null ? null : [top.id, ...inScope]);
  const documentsByFolder = new Map<string | null, typeof documents>();
  for (const document of documents) {
    const list = documentsByFolder.get(document.folder_id) ?? [];
    list.push(document);
    documentsByFolder.set(document.folder_id, list);
  }

  const entries: ArchiveEntry[] = [];
  const expanded = new Set<string>();
  const directories: { folderId: string | null; prefix: string }[] = [{ folderId: top?.id ?? null, prefix: under }];
  for (let directory = directories.pop(); directory !== undefined; directory = directories.pop()) {
    const { folderId, prefix } = directory;
    const subfolders = (children.get(folderId) ?? []).filter((folder) => !expanded.has(folder.id));
    for (const folder of subfolders) expanded.add(folder.id);
    const documentsHere = documentsByFolder.get(folderId) ?? [];
    const names = claimNames([
      ...subfolders.map((folder) => ({ name: folder.name, isFile: false })),
      ...documentsHere.map((document) => ({ name: document.original_filename, isFile: true })),
    ]);
    documentsHere.forEach((document, i) => {
      entries.push({ path: prefix + names[subfolders.length + i]!, storage_key: document.storage_key, date: document.upload_date });
    });
    subfolders.forEach((_folder, i) => entries.push({ path: `${prefix}${names[i]!}/`, storage_key: null, date: now }));
    for (let i = subfolders.length - 1; i >= 0; i--) directories.push({ folderId: subfolders[i]!.id, prefix: `${prefix}${names[i]!}/` });
  }
  return { top, entries, documents: documents.length };
}

/**
 * The caller's folder `folderId` (null: everything they have) with all of its subfolders: every
 * live document as a file under its folder's path relative to that folder, every subfolder as a
 * directory (so empty ones are kept). Another user's folder answers like a missing one.
 */
export async function planArchive(ctx: ClientContext, input: { folder_id: string | null }): Promise<ArchivePlan> {
  const { top, entries, documents } = await accountArchiveEntries(ctx.db, ctx.account.id, ctx.user.id, input.folder_id, ctx.now(), "");
  await recordActivity(ctx.db, ctx, {
    action: "document.download",
    client: accountClient(ctx.account),
    target: top ? { type: "folder", id: top.id } : undefined,
    detail: { archive: true, folder: top?.name ?? null, documents },
  });
  return { filename: `${top === null ? ALL_DOCUMENTS_NAME : safeSegment(top.name)}.zip`, entries };
}
