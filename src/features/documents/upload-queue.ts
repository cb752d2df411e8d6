/*
 * The queue behind a many-file upload, without React or the network: files wait, at most
 * `concurrency` upload at a time, each can be cancelled (waiting or uploading) and a failed or
 * cancelled one tried again. A batch runs from the first file added to an idle queue until
 * nothing waits or uploads any more; its end is reported once, with counts, for the summary.
 */

type UploadState = "waiting" | "uploading" | "done" | "failed" | "cancelled";

export type UploadItem = {
  readonly id: number;
  readonly file: File;
  /** The folder it goes into; null for the root. */
  readonly folderId: string | null;
  readonly state: UploadState;
  /** 0-100 while uploading, null until the browser reports how much has been sent. */
  readonly percent: number | null;
  /** Why it failed, in the server's words when it answered. */
  readonly error: string | null;
};

/** Sends one file; resolves when it is stored and rejects with the reason otherwise (an UploadFailure for a refusal). */
export type SendUpload = (file: File, folderId: string | null, onProgress: (percent: number) => void, signal: AbortSignal) => Promise<void>;

/** A refused or broken upload: the server's `detail` and the HTTP status, when there was an answer. */
export class UploadFailure extends Error {
  constructor(
    readonly detail: string | undefined,
    readonly status?: number,
  ) {
    super(detail ?? "Upload failed");
  }
}

export type BatchSummary = { done: number; failed: number; cancelled: number; lastError: string | null };

type UploadQueueOptions = {
  send: SendUpload;
  maxBytes: number;
  /** What a file over `maxBytes` fails with, without being sent (the server's own message). */
  tooLargeMessage: string;
  /** Shown for a failure the server did not explain (no answer, a proxy's page). */
  fallbackError: string;
  concurrency?: number;
  onUploaded?: (item: UploadItem) => void;
  onFailed?: (item: UploadItem, reason: unknown) => void;
  onBatchEnd?: (summary: BatchSummary) => void;
};

export type UploadQueue = ReturnType<typeof createUploadQueue>;

const isFinished = (state: UploadState) => state === "done" || state === "failed" || state === "cancelled";

export function createUploadQueue(options: UploadQueueOptions) {
  const concurrency = options.concurrency ?? 3;
  let items: readonly UploadItem[] = [];
  let nextId = 1;
  /** Ids that belong to the running batch (a retried file joins again). */
  let batch = new Set<number>();
  const controllers = new Map<number, AbortController>();
  const listeners = new Set<() => void>();

  const find = (id: number) => items.find((item) => item.id === id);

  function update(id: number, changes: Partial<UploadItem>): UploadItem | undefined {
    items = items.map((item) => (item.id === id ? { ...item, ...changes } : item));
    return find(id);
  }

  function emit() {
    for (const listener of listeners) listener();
  }

  function start(item: UploadItem) {
    const controller = new AbortController();
    controllers.set(item.id, controller);
    update(item.id, { state: "uploading", percent: null, error: null });
    options
      .send(
        item.file,
        item.folderId,
        (percent) => {
          if (find(item.id)?.state !== "uploading") return;
          update(item.id, { percent });
          emit();
        },
        controller.signal,
      )
      .then(
        () => settle(item.id, { state: "done", percent: 100 }),
        (reason: unknown) => {
          const detail = reason instanceof UploadFailure ? reason.detail : undefined;
          settle(item.id, { state: "failed", error: detail ?? options.fallbackError }, reason);
        },
      );
  }

  function settle(id: number, changes: Partial<UploadItem>, reason?: unknown) {
    controllers.delete(id);
    // Cancelled meanwhile: the abort's rejection is not a failure.
    if (find(id)?.state !== "uploading") return;
    const item = update(id, changes)!;
    if (item.state === "done") options.onUploaded?.(item);
    else options.onFailed?.(item, reason);
    pump();
  }

  /** Starts waiting files while there is room, and reports the batch's end once nothing is left to do. */
  function pump() {
    let running = items.filter((item) => item.state === "uploading").length;
    for (const item of items) {
      if (running >= concurrency) break;
      if (item.state !== "waiting") continue;
      start(item);
      running += 1;
    }
    if (running === 0 && batch.size > 0 && !items.some((item) => item.state === "waiting")) {
      const ended = items.filter((item) => batch.has(item.id));
      batch = new Set();
      const failures = ended.filter((item) => item.state === "failed");
      options.onBatchEnd?.({
        done: ended.filter((item) => item.state === "done").length,
        failed: failures.length,
        cancelled: ended.filter((item) => item.state === "cancelled").length,
        lastError: failures.at(-1)?.error ?? null,
      });
    }
    emit();
  }

  return {
    /** Queues `files` for `folderId`; a file over the limit fails at once, without being sent. */
    add(files: readonly File[], folderId: string | null) {
      if (files.length === 0) return;
      const added = files.map((file): UploadItem => ({
        id: nextId++,
        file,
        folderId,
        ...(file.size > options.maxBytes
          ? { state: "failed", percent: null, error: options.tooLargeMessage }
          : { state: "waiting", percent: null, error: null }),
      }));
      items = [...items, ...added];
      for (const item of added) batch.add(item.id);
      pump();
    },
    cancel(id: number) {
      const item = find(id);
      if (!item || (item.state !== "waiting" && item.state !== "uploading")) return;
      update(id, { state: "cancelled", percent: null });
      controllers.get(id)?.abort();
      controllers.delete(id);
      pump();
    },
    retry(id: number) {
      const item = find(id);
      if (!item || (item.state !== "failed" && item.state !== "cancelled") || item.file.size > options.maxBytes) return;
      update(id, { state: "waiting", percent: null, error: null });
      batch.add(id);
      pump();
    },
    /** Cancels everything still to do (the page is going away). */
    cancelAll() {
      items = items.map((item) => (isFinished(item.state) ? item : { ...item, state: "cancelled", percent: null }));
      for (const controller of controllers.values()) controller.abort();
      controllers.clear();
      pump();
    },
    /** Drops the rows of finished files from the list. */
    clearFinished() {
      items = items.filter((item) => !isFinished(item.state));
      emit();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => items,
  };
}

/**
 * The toast at a batch's end: the spec's own texts for a single file, counts for more
 * ("5 files uploaded, 1 failed"); null when every file was cancelled (the user knows).
 */
export function batchMessage(summary: BatchSummary): { text: string; description?: string; ok: boolean } | null {
  const { done, failed, cancelled } = summary;
  if (done + failed === 0) return null;
  if (done + failed + cancelled === 1) {
    return done === 1
      ? { text: "File uploaded successfully", ok: true }
      : { text: "File upload failed", description: summary.lastError ?? undefined, ok: false };
  }
  const parts = [`${done} ${done === 1 ? "file" : "files"} uploaded`];
  if (failed > 0) parts.push(`${failed} failed`);
  if (cancelled > 0) parts.push(`${cancelled} cancelled`);
  return { text: parts.join(", "), ok: failed === 0 };
}
