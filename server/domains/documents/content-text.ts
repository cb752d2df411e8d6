// The text inside a document, for content search (docs/architecture.md, "Content search"): PDFs
// through pdfjs-dist's legacy build (the one for Node; the web client already ships pdfjs-dist for
// its previews) on a thread of their own (pdf-text-worker.mjs), text files as UTF-8. Read through the storage interface only, so content stored
// encrypted later reads the same way. Bounded on every side: the bytes read, the pages, the
// characters kept and the time taken. A PDF that is malformed, encrypted or too slow gives no text,
// never an error: the upload it came with stays as it is, found by its name. The text itself is
// never logged; callers log only ids and the reason a document was skipped.
import { buffer as streamBuffer, text as streamText } from "node:stream/consumers";
import { Worker } from "node:worker_threads";
import type { ObjectStorage } from "../../storage/storage.ts";

/** Pages read from a PDF: a return's first pages say what it is. */
export const MAX_TEXT_PAGES = 50;
/** Characters kept (Postgres's to_tsvector copes with far more; the index and the row need not). */
export const MAX_TEXT_CHARACTERS = 100_000;
/** How long one document's extraction may take before it is given up as unreadable. */
export const TEXT_TIMEOUT_MS = 20_000;
/** A text file's bytes read: enough for MAX_TEXT_CHARACTERS of UTF-8. */
const MAX_TEXT_FILE_BYTES = MAX_TEXT_CHARACTERS * 4;

const PDF = "application/pdf";
const TEXT = "text/plain";
/** The stored content types that have text to extract; for anything else there is nothing to read. */
export const TEXT_CONTENT_TYPES: readonly string[] = [PDF, TEXT];

export type ExtractedText = { text: string } | { skipped: "unreadable" | "encrypted" | "timeout" | "missing" };

/** The document's text, capped; `skipped` (with why, for the log) when the content cannot be read as text. */
export async function extractText(storage: ObjectStorage, key: string, contentType: string, size: number): Promise<ExtractedText> {
  if (contentType === TEXT) {
    const end = Math.min(size, MAX_TEXT_FILE_BYTES) - 1;
    if (end < 0) return { text: "" };
    const body = await storage.get(key, { start: 0, end });
    return { text: clean((await streamText(body)).slice(0, MAX_TEXT_CHARACTERS)) };
  }
  if (contentType !== PDF) return { text: "" };
  // Uploads are at most 10 MB: the whole PDF in memory (pdfjs needs random access to it).
  const bytes = new Uint8Array(await streamBuffer(await storage.get(key)));
  return pdfText(bytes);
}

/** Control characters (a NUL cannot be stored in Postgres text) as spaces. */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is being removed
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, " ");
}

/** What content-text.ts sends its PDF thread (pdf-text-worker.mjs), and what comes back. */
export type PdfTextJob = { data: Uint8Array };
export type PdfTextReply = { text: string } | { skipped: "unreadable" | "encrypted" };
export type PdfTextWorkerData = { maxPages: number; maxCharacters: number; niceness: number };

/** Below request handling and Postgres, like the password-hashing threads. */
const PDF_THREAD_NICENESS = 10;
/** A hostile PDF may try to make the parser build huge structures: the thread is stopped past this. */
const PDF_THREAD_HEAP_MB = 256;

/** One PDF thread per instance, started on the first PDF and ended (and started again) after a timeout or a crash. */
let pdfThread: Worker | null = null;
/** The PDF being read: one at a time (the job's concurrency is 1; a second caller waits its turn). */
let pdfQueue: Promise<unknown> = Promise.resolve();

function startPdfThread(): Worker {
  const workerData: PdfTextWorkerData = { maxPages: MAX_TEXT_PAGES, maxCharacters: MAX_TEXT_CHARACTERS, niceness: PDF_THREAD_NICENESS };
  const worker = new Worker(new URL("./pdf-text-worker.mjs", import.meta.url), {
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: PDF_THREAD_HEAP_MB },
  });
  worker.unref();
  const forget = () => {
    if (pdfThread === worker) pdfThread = null;
  };
  worker.once("exit", forget);
  worker.once("error", forget);
  return worker;
}

function pdfText(data: Uint8Array): Promise<ExtractedText> {
  const turn = pdfQueue.then(() => readInThread(data));
  pdfQueue = turn.catch(() => undefined);
  return turn;
}

function readInThread(data: Uint8Array): Promise<ExtractedText> {
  const worker = (pdfThread ??= startPdfThread());
  return new Promise<ExtractedText>((resolve) => {
    const finish = (result: ExtractedText) => {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("exit", onExit);
      worker.unref();
      resolve(result);
    };
    const onMessage = (reply: PdfTextReply) => finish("text" in reply ? { text: clean(reply.text) } : reply);
    // Out of memory or crashed: this PDF is unreadable; the next one starts a new thread.
    const onExit = () => finish({ skipped: "unreadable" });
    // The parse is stopped for real: the thread ends, and the next PDF starts a new one.
    const timer = setTimeout(() => {
      finish({ skipped: "timeout" });
      void worker.terminate();
    }, TEXT_TIMEOUT_MS);
    worker.on("message", onMessage);
    worker.once("exit", onExit);
    worker.ref();
    // The bytes move to the thread rather than being copied.
    worker.postMessage({ data } satisfies PdfTextJob, [data.buffer as ArrayBuffer]);
  });
}
