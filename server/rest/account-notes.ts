// The firm's private notes on a client account (docs/decisions.md, "Private notes on a client's record").
import { successOutput } from "../domains/shared-schemas.ts";
import { accountNoteOutput, noteBodyInput } from "../domains/account-notes/schemas.ts";
import { bodyOf, procedureRoute, type RestRoute } from "./route.ts";

export const accountNoteRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/admin/accounts/:id/notes",
    summary: "The firm's private notes on a client account, newest first (clients never see them; 404 outside the caller's reach)",
    tag: "admin",
    access: "admin",
    response: accountNoteOutput.array(),
    call: (c, r) => c.admin.accountNotes.list({ id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/accounts/:id/notes",
    summary: "Add a private note to a client account (anyone of the firm who reaches it)",
    tag: "admin",
    access: "admin",
    body: noteBodyInput,
    response: accountNoteOutput,
    status: 201,
    call: (c, r) => c.admin.accountNotes.create({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "patch",
    path: "/admin/accounts/:id/notes/:noteId",
    summary: "Change a private note (its author only: 403 for anyone else's)",
    tag: "admin",
    access: "admin",
    body: noteBodyInput,
    response: accountNoteOutput,
    call: (c, r) => c.admin.accountNotes.update({ ...bodyOf(r), id: r.params.id, noteId: r.params.noteId }),
  }),
  procedureRoute({
    method: "delete",
    path: "/admin/accounts/:id/notes/:noteId",
    summary: "Delete a private note (its author only: 403 for anyone else's)",
    tag: "admin",
    access: "admin",
    response: successOutput,
    call: (c, r) => c.admin.accountNotes.delete({ id: r.params.id, noteId: r.params.noteId }),
  }),
];
