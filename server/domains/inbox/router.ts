import { adminProcedure } from "../../trpc/procedures.ts";
import { inboxInput, inboxPageOutput, inboxUnreadOutput, markInboxReadInput } from "./schemas.ts";
import { firmInbox, inboxUnread, markInboxRead } from "./service.ts";

/** Spread into the admin router: `admin.inbox`, `admin.inboxUnread`, `admin.inboxRead`. */
export const inboxAdminProcedures = {
  inbox: adminProcedure
    .input(inboxInput)
    .output(inboxPageOutput)
    .query(({ ctx, input }) => firmInbox(ctx, input)),
  inboxUnread: adminProcedure.output(inboxUnreadOutput).query(({ ctx }) => inboxUnread(ctx)),
  inboxRead: adminProcedure
    .input(markInboxReadInput)
    .output(inboxUnreadOutput)
    .mutation(({ ctx, input }) => markInboxRead(ctx, input)),
};
