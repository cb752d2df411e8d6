import { describe, expect, it } from "vitest";
import { type BatchSummary, batchMessage, createUploadQueue, type SendUpload, UploadFailure } from "../../src/features/documents/upload-queue.ts";

const MAX = 1000;

/** A transport the test answers by hand: each call waits until the test resolves or rejects it. */
function controlledSend() {
  const calls: Array<{
    name: string;
    folderId: string | null;
    signal: AbortSignal;
    progress: (percent: number) => void;
    resolve: () => void;
    reject: (reason: unknown) => void;
  }> = [];
  const send: SendUpload = (file, folderId, onProgress, signal) =>
    new Promise((resolve, reject) => {
      calls.push({ name: file.name, folderId, signal, progress: onProgress, resolve, reject });
      signal.addEventListener("abort", () => reject(new UploadFailure(undefined)));
    });
  const call = (name: string) => {
    const found = calls.find((c) => c.name === name);
    if (!found) throw new Error(`${name} was never sent`);
    return found;
  };
  return { send, calls, call };
}

function setUp() {
  const transport = controlledSend();
  const summaries: BatchSummary[] = [];
  const uploaded: string[] = [];
  const queue = createUploadQueue({
    send: transport.send,
    maxBytes: MAX,
    tooLargeMessage: "File is larger than 10MB",
    fallbackError: "File upload failed",
    onUploaded: (item) => uploaded.push(item.file.name),
    onBatchEnd: (summary) => summaries.push(summary),
  });
  const states = () => Object.fromEntries(queue.getSnapshot().map((item) => [item.file.name, item.state]));
  const idOf = (name: string) => queue.getSnapshot().find((item) => item.file.name === name)!.id;
  return { queue, transport, summaries, uploaded, states, idOf };
}

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);
const files = (count: number) => Array.from({ length: count }, (_, i) => file(`f${i + 1}.txt`));
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("upload queue", () => {
  it("uploads at most three files at a time and starts the next as one finishes", async () => {
    const { queue, transport, states, uploaded } = setUp();
    queue.add(files(5), "folder-1");
    expect(transport.calls.map((c) => c.name)).toEqual(["f1.txt", "f2.txt", "f3.txt"]);
    expect(transport.calls.every((c) => c.folderId === "folder-1")).toBe(true);
    expect(states()).toEqual({ "f1.txt": "uploading", "f2.txt": "uploading", "f3.txt": "uploading", "f4.txt": "waiting", "f5.txt": "waiting" });

    transport.call("f2.txt").resolve();
    await settled();
    expect(transport.calls.map((c) => c.name)).toEqual(["f1.txt", "f2.txt", "f3.txt", "f4.txt"]);
    expect(uploaded).toEqual(["f2.txt"]);
    expect(states()["f2.txt"]).toBe("done");
  });

  it("reports progress only for a file that is uploading", async () => {
    const { queue, transport, idOf } = setUp();
    queue.add([file("a.pdf")], null);
    transport.call("a.pdf").progress(40);
    expect(queue.getSnapshot()[0]!.percent).toBe(40);
    queue.cancel(idOf("a.pdf"));
    transport.call("a.pdf").progress(60);
    expect(queue.getSnapshot()[0]!.percent).toBeNull();
  });

  it("cancels a waiting file without sending it, and an uploading one by aborting its request", async () => {
    const { queue, transport, states, idOf, summaries } = setUp();
    queue.add(files(4), null);
    queue.cancel(idOf("f4.txt"));
    expect(states()["f4.txt"]).toBe("cancelled");

    queue.cancel(idOf("f1.txt"));
    expect(transport.call("f1.txt").signal.aborted).toBe(true);
    await settled();
    // The abort's rejection does not turn the cancelled file into a failed one, and f4 stays unsent.
    expect(states()).toEqual({ "f1.txt": "cancelled", "f2.txt": "uploading", "f3.txt": "uploading", "f4.txt": "cancelled" });
    expect(transport.calls).toHaveLength(3);

    transport.call("f2.txt").resolve();
    transport.call("f3.txt").resolve();
    await settled();
    expect(summaries).toEqual([{ done: 2, failed: 0, cancelled: 2, lastError: null }]);
  });

  it("fails a file over the limit at once without sending it, and keeps the server's detail for a refused one", async () => {
    const { queue, transport, states, summaries } = setUp();
    queue.add([file("huge.bin", MAX + 1), file("quota.pdf"), file("ok.txt")], null);
    expect(transport.calls.map((c) => c.name)).toEqual(["quota.pdf", "ok.txt"]);
    expect(queue.getSnapshot()[0]).toMatchObject({ state: "failed", error: "File is larger than 10MB" });

    transport.call("quota.pdf").reject(new UploadFailure("Storage quota exceeded", 413));
    transport.call("ok.txt").resolve();
    await settled();
    expect(states()).toEqual({ "huge.bin": "failed", "quota.pdf": "failed", "ok.txt": "done" });
    expect(queue.getSnapshot()[1]!.error).toBe("Storage quota exceeded");
    expect(summaries).toEqual([{ done: 1, failed: 2, cancelled: 0, lastError: "Storage quota exceeded" }]);
  });

  it("says a failure without an answer from the server in its own words", async () => {
    const { queue, transport } = setUp();
    queue.add([file("a.pdf")], null);
    transport.call("a.pdf").reject(new TypeError("network"));
    await settled();
    expect(queue.getSnapshot()[0]).toMatchObject({ state: "failed", error: "File upload failed" });
  });

  it("retries a failed or cancelled file as a new batch, but not one over the limit", async () => {
    const { queue, transport, states, idOf, summaries } = setUp();
    queue.add([file("a.pdf"), file("big.pdf", MAX + 1)], null);
    transport.call("a.pdf").reject(new UploadFailure("Service unavailable", 503));
    await settled();
    expect(summaries).toHaveLength(1);

    queue.retry(idOf("big.pdf"));
    expect(states()["big.pdf"]).toBe("failed");
    queue.retry(idOf("a.pdf"));
    expect(states()["a.pdf"]).toBe("uploading");
    expect(queue.getSnapshot()[0]!.error).toBeNull();
    transport.calls.at(-1)!.resolve();
    await settled();
    expect(states()["a.pdf"]).toBe("done");
    expect(summaries[1]).toEqual({ done: 1, failed: 0, cancelled: 0, lastError: null });
  });

  it("cancels everything still to do when the page goes away, and clears finished rows on request", async () => {
    const { queue, transport, states } = setUp();
    queue.add(files(5), null);
    transport.call("f1.txt").resolve();
    await settled();
    queue.cancelAll();
    expect(states()).toEqual({ "f1.txt": "done", "f2.txt": "cancelled", "f3.txt": "cancelled", "f4.txt": "cancelled", "f5.txt": "cancelled" });
    expect(transport.calls.filter((c) => !c.signal.aborted).map((c) => c.name)).toEqual(["f1.txt"]);
    queue.clearFinished();
    expect(queue.getSnapshot()).toEqual([]);
  });

  it("tells its subscribers about every change", () => {
    const { queue } = setUp();
    let changes = 0;
    const unsubscribe = queue.subscribe(() => changes++);
    queue.add([file("a.pdf")], null);
    expect(changes).toBeGreaterThan(0);
    unsubscribe();
    const before = changes;
    queue.cancelAll();
    expect(changes).toBe(before);
  });
});

describe("batch message", () => {
  it("uses the spec's texts for a single file and counts for more", () => {
    expect(batchMessage({ done: 1, failed: 0, cancelled: 0, lastError: null })).toEqual({ text: "File uploaded successfully", ok: true });
    expect(batchMessage({ done: 0, failed: 1, cancelled: 0, lastError: "File is larger than 10MB" })).toEqual({
      text: "File upload failed",
      description: "File is larger than 10MB",
      ok: false,
    });
    expect(batchMessage({ done: 5, failed: 1, cancelled: 0, lastError: "x" })).toEqual({ text: "5 files uploaded, 1 failed", ok: false });
    expect(batchMessage({ done: 1, failed: 0, cancelled: 1, lastError: null })).toEqual({ text: "1 file uploaded, 1 cancelled", ok: true });
    expect(batchMessage({ done: 0, failed: 0, cancelled: 3, lastError: null })).toBeNull();
  });
});
