// @ts-check
// The thread that reads a PDF's text for content search (content-text.ts). A PDF is a client's
// upload, so untrusted: parsing it here keeps a slow or hostile file off the thread that answers
// requests, lets the timeout stop it for real (the thread is terminated), and keeps pdfjs's
// legacy build (its polyfills and its fake in-thread worker) out of the server's own thread. The
// thread lowers its CPU priority, as the password-hashing threads do. Plain JavaScript checked by
// tsc through JSDoc, so it loads as it is under tsx, vitest and node alike.
import fs from "node:fs";
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";

/** @typedef {import("./content-text.ts").PdfTextJob} Job */
/** @typedef {import("./content-text.ts").PdfTextReply} Reply */
/** @typedef {import("./content-text.ts").PdfTextWorkerData} WorkerData */

const { maxPages, maxCharacters, niceness } = /** @type {WorkerData} */ (workerData);
try {
  // On Linux niceness is per thread, and /proc/thread-self names this one.
  os.setPriority(Number(fs.readlinkSync("/proc/thread-self").split("/").pop()), niceness);
} catch {
  // Not Linux: the thread keeps the normal priority.
}

const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);
const { getDocument, VerbosityLevel } = await import("pdfjs-dist/legacy/build/pdf.mjs");

port.on("message", async (/** @type {Job} */ job) => {
  const task = getDocument({
    data: job.data,
    // Errors only: pdfjs's warnings about a damaged file go to the console, not our log.
    verbosity: VerbosityLevel.ERRORS,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: true,
  });
  /** @type {Reply} */
  let reply;
  try {
    const pdf = await task.promise;
    /** @type {string[]} */
    const parts = [];
    let length = 0;
    for (let n = 1; n <= Math.min(pdf.numPages, maxPages) && length < maxCharacters; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      for (const item of content.items) {
        if ("str" in item && item.str) {
          parts.push(item.str);
          length += item.str.length + 1;
        }
      }
      page.cleanup();
    }
    reply = { text: parts.join(" ").slice(0, maxCharacters) };
  } catch (err) {
    reply = { skipped: /** @type {Error | undefined} */ (err)?.name === "PasswordException" ? "encrypted" : "unreadable" };
  } finally {
    await task.destroy().catch(() => undefined);
  }
  port.postMessage(reply);
});
