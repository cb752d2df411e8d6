// A request's checklist (issue 34; docs/decisions.md, "Request checklists (issue 34)"): the firm
// marks an item done or reopens it, and the client takes back a document attached to an item by
// mistake while the item (and the request) is not done. Uploading to an item is the ordinary upload
// with `request_item_id` (service.ts requestForUpload).
import { TRPCError } from "@trpc/server";
import { accountClient } from "../activity/record.ts";
import { accountHasMailRecipients } from "../accounts/queries.ts";
import { chargedIfMailing } from "../../trpc/firm-mail-cap.ts";
import type { ClientContext, FirmContext } from "../../trpc/context.ts";
import { detachAndTrashItemDocument, lockItemForClientChange, lockItemForFirm, setItemStatus, setRequestStatus } from "./queries.ts";
import {
  type AdminRequest,
  type ClientRequest,
  DOCUMENT_NOT_ON_ITEM,
  ITEM_DONE,
  ITEM_NOT_FOUND,
  REQUEST_NOT_FOUND,
  REQUEST_NOT_OPEN,
  type RemoveItemDocumentInput,
  type UpdateRequestItemInput,
} from "./schemas.ts";
import { adminRequest, listOwnRequests, recordRequestActivity } from "./service.ts";

/**
 * The firm marks an item done (its files are then the client's to keep, not to take back) or
 * reopens it; the client is mailed when an item is reopened. Reopening an item of a done request
 * reopens the request too, so the client can upload again.
 */
export async function updateRequestItem(ctx: FirmContext, input: UpdateRequestItemInput): Promise<AdminRequest> {
  // Reopening an item mails the client, and is charged to the firm's mail cap when it does
  // (docs/security.md, "Round 4 (issue 47): reminders and the mail cap count only mail that goes").
  await chargedIfMailing(ctx, input.status === "open", (mail) =>
    ctx.db.transaction().execute(async (tx) => {
      const item = await lockItemForFirm(tx, ctx.firmScope, input.request_id, input.item_id);
      if (!item) throw new TRPCError({ code: "NOT_FOUND", message: ITEM_NOT_FOUND });
      if (item.status === input.status) return;
      await setItemStatus(tx, item.id, input.status, ctx.now());
      const reopensRequest = input.status === "open" && item.request_status === "done";
      if (reopensRequest) await setRequestStatus(tx, item.request_id, { status: "open", now: ctx.now() });
      if (input.status === "open") {
        if (await accountHasMailRecipients(tx, item.account_id)) mail.mayMail();
        await ctx.jobs.send("email", { kind: "document-request-item-reopened", requestId: item.request_id, itemId: item.id }, { tx });
      }
      await recordRequestActivity(tx, ctx, "request.item_update", accountClient({ id: item.account_id, name: item.name }), item.request_id, {
        title: item.request_title,
        item: item.title,
        status: input.status,
        previous_status: item.status,
        ...(reopensRequest ? { request_reopened: true } : {}),
      });
    }),
  );
  return adminRequest(ctx, input.request_id);
}

/**
 * The client takes a document off an item of their request (a wrong file): it goes to their trash,
 * as their Delete does, and no longer counts for the request. Refused once the firm has marked the
 * item or the request done.
 */
export async function removeItemDocument(ctx: ClientContext, input: RemoveItemDocumentInput): Promise<ClientRequest & { removed_to_trash: boolean }> {
  const toTrash = await ctx.db.transaction().execute(async (tx) => {
    const item = await lockItemForClientChange(tx, ctx.account.id, input.request_id, input.item_id);
    if (!item) throw new TRPCError({ code: "NOT_FOUND", message: ITEM_NOT_FOUND });
    if (item.request_status === "done") throw new TRPCError({ code: "CONFLICT", message: REQUEST_NOT_OPEN });
    if (item.status === "done") throw new TRPCError({ code: "CONFLICT", message: ITEM_DONE });
    const removed = await detachAndTrashItemDocument(tx, ctx.account.id, item.id, input.document_id, ctx.now());
    if (!removed) throw new TRPCError({ code: "NOT_FOUND", message: DOCUMENT_NOT_ON_ITEM });
    await recordRequestActivity(tx, ctx, "request.item_remove", accountClient(ctx.account), input.request_id, {
      title: item.request_title,
      item: item.title,
      filename: removed.original_filename,
    });
    return removed.deleted_at !== null;
  });
  const own = (await listOwnRequests(ctx)).find((request) => request.id === input.request_id);
  if (!own) throw new TRPCError({ code: "NOT_FOUND", message: REQUEST_NOT_FOUND });
  return { ...own, removed_to_trash: toTrash };
}
