// The firm's Inbox over REST: the list (with the unread count) and marking items read.
import { inboxInput, inboxPageOutput, inboxUnreadOutput, markInboxReadInput } from "../domains/inbox/schemas.ts";
import { procedureRoute, type RestRoute } from "./route.ts";

export const inboxRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/admin/inbox",
    summary:
      "What arrived for the firm (client messages, uploads, submitted requests, consultation requests, appointment requests, bookings, moves and cancellations), each naming the person who acted, newest first, with the unread count",
    tag: "admin",
    access: "admin",
    query: inboxInput,
    response: inboxPageOutput,
    call: (c, r) => c.admin.inbox.list(r.query),
  }),
  procedureRoute({
    method: "get",
    path: "/admin/inbox/unread",
    summary: "How many Inbox items are unread",
    tag: "admin",
    access: "admin",
    response: inboxUnreadOutput,
    call: (c) => c.admin.inbox.unread(),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/inbox/read",
    summary: "Marks Inbox items read: { ids: [...] } or { all: true }; answers the unread count left",
    tag: "admin",
    access: "admin",
    body: markInboxReadInput,
    response: inboxUnreadOutput,
    call: (c, r) => c.admin.inbox.read(r.body),
  }),
];
