/**
 * The files of a drop, with the files inside dropped folders (at any depth) in their place.
 * The entries must be taken while the drop event runs: the DataTransfer is emptied after it.
 */
export function droppedFiles(transfer: DataTransfer): Promise<File[]> {
  const entries = [...transfer.items]
    .filter((item) => item.kind === "file")
    .map((item) => ({ entry: item.webkitGetAsEntry?.() ?? null, file: item.getAsFile() }));
  // Without the entries API (or for a synthetic DataTransfer) the plain file list is all there is.
  if (entries.length === 0 || entries.every(({ entry }) => entry === null)) return Promise.resolve([...transfer.files]);
  return Promise.all(entries.map(({ entry, file }) => (entry ? filesOf(entry) : Promise.resolve(file ? [file] : [])))).then((lists) => lists.flat());
}

function isFile(entry: FileSystemEntry): entry is FileSystemFileEntry {
  return entry.isFile;
}

function isDirectory(entry: FileSystemEntry): entry is FileSystemDirectoryEntry {
  return entry.isDirectory;
}

async function filesOf(entry: FileSystemEntry): Promise<File[]> {
  if (isFile(entry)) return [await new Promise<File>((resolve, reject) => entry.file(resolve, reject))];
  if (!isDirectory(entry)) return [];
  const children = await readAll(entry.createReader());
  const lists = await Promise.all(children.map(filesOf));
  return lists.flat();
}

/** A directory reader hands out its entries in chunks (100 in Chromium) until it returns none. */
async function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  const all: FileSystemEntry[] = [];
  for (;;) {
    const chunk = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (chunk.length === 0) return all;
    all.push(...chunk);
  }
}
