import { router } from "../../trpc/init.ts";
import { adminProcedure } from "../../trpc/procedures.ts";
import { inboxInput, inboxPageOutput, inboxUnreadOutput, markInboxReadInput } from "./schemas.ts";
import { firmInbox, inboxUnread, markInboxRead } from "./service.ts";

/** The firm sub-router `admin.inbox`: `admin.inbox.list`, `admin.inbox.unread`, `admin.inbox.read`. */
export const inboxFirmRouter = router({
  list: adminProcedure
    .input(inboxInput)
    .output(inboxPageOutput)
    .query(({ ctx, input }) => firmInbox(ctx, input)),
  unread: adminProcedure.output(inboxUnreadOutput).query(({ ctx }) => inboxUnread(ctx)),
  read: adminProcedure
    .input(markInboxReadInput)
    .output(inboxUnreadOutput)
    .mutation(({ ctx, input }) => markInboxRead(ctx, input)),
});
