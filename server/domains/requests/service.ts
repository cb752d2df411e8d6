// Document requests (docs/decisions.md, Document requests): the firm asks a client for documents,
// the client uploads against the request (documents/upload.ts createDocument attaches them) and
// marks it submitted, and the firm marks it done or reopens it with a comment. Every change is
// recorded in the client's trail and its mail queued in the change's own transaction.
import { TRPCError } from "@trpc/server";
import { accountClient, accountLabel, type ActivityClient, recordActivity } from "../activity/record.ts";
import { accountHasMailRecipients, findAccountName } from "../accounts/queries.ts";
import { chargedIfMailing } from "../../trpc/firm-mail-cap.ts";
import { accountForFirm } from "../accounts/service.ts";
import { addToInbox } from "../inbox/queries.ts";
import type { Db } from "../../db/types.ts";
import type { AuthedContext, ClientContext, FirmContext } from "../../trpc/context.ts";
import type { Page } from "../admin/schemas.ts";
import { addDays, localDate } from "../appointments/firm-clock.ts";
import { isOwnFolder, listFolders } from "../folders/queries.ts";
import { FOLDER_NOT_FOUND } from "../folders/service.ts";
import {
  countAttachedDocuments,
  findAdminRequest,
  findRequestTemplate,
  insertRequest,
  insertRequestItems,
  listAdminRequests,
  listAttachedDocuments,
  listAccountRequests,
  listNeededItemTitles,
  listRequestItems,
  lockItemForUpload,
  lockOpenRequestForUpload,
  lockRequest,
  lockRequestForFirm,
  setRequestStatus,
} from "./queries.ts";
import {
  ALREADY_SUBMITTED,
  type AdminRequest,
  type AdminRequestListInput,
  type ClientRequest,
  type CreateRequestInput,
  ITEM_DONE,
  ITEM_NOT_FOUND,
  NOTHING_ATTACHED,
  REQUEST_NOT_FOUND,
  REQUEST_NOT_OPEN,
  type RequestFolder,
  type RequestItem,
  type RequestStatus,
  TEMPLATE_NOT_FOUND,
  type UpdateRequestInput,
} from "./schemas.ts";
import { templateItems } from "./templates.ts";
import { FOREIGN_KEY_VIOLATION, isPgError } from "../../db/errors.ts";

/** The early reminder goes this many days before the due date (the other on the day). */
export const EARLY_REMINDER_DAYS = 3;
const DUE_DATE_PASSED = "Due date must be today or later";
const USER_NOT_FOUND = "User not found";

/** The firm's today: due dates are days on its calendar. */
function firmToday(ctx: Pick<AuthedContext, "config" | "now">): string {
  return localDate(ctx.now(), ctx.config.firmTimeZone);
}

function isOverdue(request: { status: RequestStatus; due_date: string | null }, today: string): boolean {
  return request.status === "open" && request.due_date !== null && request.due_date < today;
}

/** The firm asks a client for documents; the client is mailed (title, due date, a portal link). */
export async function createRequest(ctx: FirmContext, input: CreateRequestInput): Promise<AdminRequest> {
  const today = firmToday(ctx);
  if (input.due_date !== null && input.due_date < today) throw new TRPCError({ code: "BAD_REQUEST", message: DUE_DATE_PASSED });
  // What the body leaves out comes from the template: its items are copied, so a later change of
  // the template never reaches a request already sent.
  const template = input.template_id ? await findRequestTemplate(ctx.db, input.template_id) : null;
  if (input.template_id && !template) throw new TRPCError({ code: "NOT_FOUND", message: TEMPLATE_NOT_FOUND });
  const title = input.title ?? template?.title ?? "";
  const description = input.description ?? template?.description ?? "";
  const items = input.items?.map((item) => item.title) ?? (template ? templateItems(template).map((item) => item.title) : []);
  const accountId = await accountForFirm(ctx.db, ctx.firmScope, input, USER_NOT_FOUND);
  const client = accountClient((await findAccountName(ctx.db, accountId)) ?? { id: accountId, name: accountId });
  if (input.folder_id !== null) {
    if (!(await isOwnFolder(ctx.db, accountId, input.folder_id))) throw new TRPCError({ code: "NOT_FOUND", message: FOLDER_NOT_FOUND });
  }
  // A due date within the early reminder's days (or today) is already in the mail about the
  // request: those reminders count as sent.
  const dueSoon = input.due_date !== null && input.due_date <= addDays(today, EARLY_REMINDER_DAYS);
  // Charged to the firm's mail cap once the request is known to be valid, and only if the account
  // has anyone to mail (docs/security.md, "Round 4 (issue 47): reminders and the mail cap count only mail that goes").
  const id = await chargedIfMailing(ctx, await accountHasMailRecipients(ctx.db, accountId), (mail) =>
    ctx.db
      .transaction()
      .execute(async (tx) => {
        const { id } = await insertRequest(tx, {
          account_id: accountId,
          title,
          description,
          due_date: input.due_date,
          folder_id: input.folder_id,
          created_by: ctx.user.id,
          early_reminder_for: dueSoon ? input.due_date : null,
          due_reminder_for: input.due_date === today ? input.due_date : null,
          now: ctx.now(),
        });
        await insertRequestItems(tx, id, items, ctx.now());
        if (await accountHasMailRecipients(tx, accountId)) mail.mayMail();
        await ctx.jobs.send("email", { kind: "document-request-created", requestId: id }, { tx });
        await recordRequestActivity(tx, ctx, "request.create", client, id, {
          title,
          due_date: input.due_date,
          status: "open",
          ...(items.length > 0 ? { items: items.length } : {}),
          ...(template ? { template: template.title } : {}),
        });
        return id;
      })
      .catch((err: unknown) => {
        // The client or the folder was deleted between the checks above and the insert.
        if (isPgError(err, FOREIGN_KEY_VIOLATION))
          throw new TRPCError({ code: "NOT_FOUND", message: input.folder_id ? FOLDER_NOT_FOUND : USER_NOT_FOUND });
        throw err;
      }),
  );
  return adminRequest(ctx, id, today);
}

/** The firm's list, newest first, by client and status. */
export async function listRequestsForFirm(ctx: FirmContext, input: AdminRequestListInput): Promise<Page<AdminRequest>> {
  const offset = input.cursor ?? 0;
  const today = firmToday(ctx);
  const { user_id, account_id, ...filter } = input;
  const accountId = user_id || account_id ? await accountForFirm(ctx.db, ctx.firmScope, { user_id, account_id }, USER_NOT_FOUND) : undefined;
  const { items, total } = await listAdminRequests(ctx.db, ctx.firmScope, { ...filter, accountId, offset });
  const checklists = await checklistsOf(
    ctx.db,
    items.map((row) => row.id),
  );
  const next = offset + items.length;
  return { items: items.map((row) => toAdminRequest(row, today, checklists.itemsOf(row.id))), nextCursor: next < total ? next : null, total };
}

/**
 * The firm marks a request done, reopens it or sets it back to submitted, with an optional answer
 * the client sees; the comment alone may change too (same status).
 */
export async function updateRequest(ctx: FirmContext, input: UpdateRequestInput): Promise<AdminRequest> {
  // Reopening mails the client, and is charged to the firm's mail cap when it does (docs/security.md,
  // "Round 4 (issue 47): reminders and the mail cap count only mail that goes").
  await chargedIfMailing(ctx, input.status === "open", (mail) =>
    ctx.db.transaction().execute(async (tx) => {
      const request = await lockRequestForFirm(tx, ctx.firmScope, input.id);
      if (!request) throw new TRPCError({ code: "NOT_FOUND", message: REQUEST_NOT_FOUND });
      const comment = input.comment === undefined ? undefined : input.comment || null;
      await setRequestStatus(tx, request.id, { status: input.status, comment, now: ctx.now() });
      if (input.status === "open" && request.status !== "open") {
        if (await accountHasMailRecipients(tx, request.account_id)) mail.mayMail();
        await ctx.jobs.send("email", { kind: "document-request-reopened", requestId: request.id }, { tx });
      }
      const client = accountClient({ id: request.account_id, name: request.name });
      await recordRequestActivity(tx, ctx, "request.update", client, request.id, {
        title: request.title,
        status: input.status,
        previous_status: request.status,
        ...(comment ? { comment } : {}),
      });
    }),
  );
  return adminRequest(ctx, input.id, firmToday(ctx));
}

/** The client's own requests, open ones first, each with the documents attached to it. */
export async function listOwnRequests(ctx: ClientContext): Promise<ClientRequest[]> {
  const rows = await listAccountRequests(ctx.db, ctx.account.id);
  const checklists = await checklistsOf(
    ctx.db,
    rows.map((row) => row.id),
  );
  const today = firmToday(ctx);
  return rows.map((row) => ({
    ...row,
    overdue: isOverdue(row, today),
    documents: checklists.documentsOf(row.id),
    items: checklists.itemsOf(row.id),
  }));
}

type AttachedDocument = ClientRequest["documents"][number];

/**
 * The items of these requests and the live documents attached to each request and item. An item
 * is "uploaded" while it is open and holds a live document.
 */
async function checklistsOf(db: Db, requestIds: readonly string[]) {
  const [items, documents] = await Promise.all([listRequestItems(db, requestIds), listAttachedDocuments(db, requestIds)]);
  const byRequest = new Map<string, AttachedDocument[]>();
  const byItem = new Map<string, AttachedDocument[]>();
  for (const { request_id, request_item_id, ...document } of documents) {
    if (request_id) byRequest.set(request_id, [...(byRequest.get(request_id) ?? []), document]);
    if (request_item_id) byItem.set(request_item_id, [...(byItem.get(request_item_id) ?? []), document]);
  }
  return {
    documentsOf: (requestId: string): AttachedDocument[] => byRequest.get(requestId) ?? [],
    itemsOf: (requestId: string): RequestItem[] =>
      items
        .filter((item) => item.request_id === requestId)
        .map((item) => {
          const attached = byItem.get(item.id) ?? [];
          const status = item.status === "done" ? "done" : attached.length > 0 ? "uploaded" : "open";
          return { id: item.id, title: item.title, status, done_at: item.done_at, documents: attached };
        }),
  };
}

/**
 * The client says everything asked for is uploaded: only an open request of their own with at
 * least one (live) document attached. The firm is mailed. A checklist's items still needed may be
 * left (the page asks first); the firm is told which, in its Inbox, the trail and the mail.
 */
export async function submitOwnRequest(ctx: ClientContext, input: { id: string }): Promise<ClientRequest> {
  await ctx.db.transaction().execute(async (tx) => {
    const request = await lockRequest(tx, input.id, ctx.account.id);
    if (!request) throw new TRPCError({ code: "NOT_FOUND", message: REQUEST_NOT_FOUND });
    if (request.status === "submitted") throw new TRPCError({ code: "CONFLICT", message: ALREADY_SUBMITTED });
    if (request.status !== "open") throw new TRPCError({ code: "CONFLICT", message: REQUEST_NOT_OPEN });
    if ((await countAttachedDocuments(tx, request.id)) === 0) throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: NOTHING_ATTACHED });
    const missing = await listNeededItemTitles(tx, request.id);
    await setRequestStatus(tx, request.id, { status: "submitted", now: ctx.now(), submittedBy: ctx.user.id });
    await ctx.jobs.send("email", { kind: "document-request-submitted", requestId: request.id }, { tx });
    await addToInbox(tx, {
      kind: "request_submitted",
      account_id: ctx.account.id,
      actor_id: ctx.user.id,
      subject_id: request.id,
      summary: { title: request.title, ...(missing.length > 0 && { missing }) },
      at: ctx.now(),
    });
    await recordRequestActivity(tx, ctx, "request.update", accountClient(ctx.account), request.id, {
      title: request.title,
      status: "submitted",
      previous_status: request.status,
      ...(missing.length > 0 && { missing_items: missing }),
    });
  });
  const own = (await listOwnRequests(ctx)).find((request) => request.id === input.id);
  if (!own) throw new TRPCError({ code: "NOT_FOUND", message: REQUEST_NOT_FOUND });
  return own;
}

/**
 * For an upload against a request (createDocument, in its transaction): the caller's own open
 * request, locked so it stays open until the document naming it is written. 404 for a missing or
 * foreign one, 409 once it is submitted or done. With an item of its checklist (`itemId`) the
 * upload may also come after the request is submitted (the client adds what they found later), but
 * not once the request or the item is done; an item of another request or account is a 404.
 */
export async function requestForUpload(
  tx: Db,
  accountId: string,
  requestId: string,
  itemId: string | null = null,
): Promise<{ id: string; folder_id: string | null; title: string; item: { id: string; title: string } | null }> {
  const request = await lockOpenRequestForUpload(tx, accountId, requestId);
  if (!request) throw new TRPCError({ code: "NOT_FOUND", message: REQUEST_NOT_FOUND });
  if (!itemId) {
    if (request.status !== "open") throw new TRPCError({ code: "CONFLICT", message: REQUEST_NOT_OPEN });
    return { ...request, item: null };
  }
  const item = await lockItemForUpload(tx, accountId, requestId, itemId);
  if (!item) throw new TRPCError({ code: "NOT_FOUND", message: ITEM_NOT_FOUND });
  if (request.status === "done") throw new TRPCError({ code: "CONFLICT", message: REQUEST_NOT_OPEN });
  if (item.status === "done") throw new TRPCError({ code: "CONFLICT", message: ITEM_DONE });
  return { ...request, item: { id: item.id, title: item.title } };
}

/** A client's folders with their paths, for choosing where a request's uploads go. */
export async function requestFolders(ctx: FirmContext, input: { user_id?: string; account_id?: string }): Promise<RequestFolder[]> {
  const folders = await listFolders(ctx.db, await accountForFirm(ctx.db, ctx.firmScope, input, USER_NOT_FOUND), null);
  const byId = new Map(folders.map((folder) => [folder.id, folder]));
  const pathOf = (id: string): string => {
    const names: string[] = [];
    // The bound only guards against a cycle the moves never let happen.
    for (let folder = byId.get(id); folder && names.length <= byId.size; folder = byId.get(folder.parent_folder_id ?? "")) names.unshift(folder.name);
    return names.join(" / ");
  };
  return folders.map((folder) => ({ id: folder.id, path: pathOf(folder.id) })).sort((a, b) => a.path.localeCompare(b.path));
}

export async function adminRequest(ctx: FirmContext, id: string, today = firmToday(ctx)): Promise<AdminRequest> {
  const row = await findAdminRequest(ctx.db, ctx.firmScope, id);
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: REQUEST_NOT_FOUND });
  const checklists = await checklistsOf(ctx.db, [id]);
  return toAdminRequest(row, today, checklists.itemsOf(id));
}

type AdminRow = NonNullable<Awaited<ReturnType<typeof findAdminRequest>>>;

function toAdminRequest(row: AdminRow, today: string, items: RequestItem[]): AdminRequest {
  const { username, email, document_count, ...request } = row;
  return {
    ...request,
    overdue: isOverdue(row, today),
    client_label: accountLabel({ username, email }),
    document_count: document_count ?? 0,
    items,
  };
}

export function recordRequestActivity(
  tx: Db,
  ctx: AuthedContext,
  action: "request.create" | "request.update" | "request.item_update" | "request.item_remove",
  client: ActivityClient,
  requestId: string,
  detail: Record<string, unknown>,
) {
  return recordActivity(tx, ctx, { action, client, target: { type: "request", id: requestId }, detail });
}
