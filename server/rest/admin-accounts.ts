import { z } from "zod";
import { listPageInput } from "../domains/admin/schemas.ts";
import {
  addContactInput,
  createAccountInput,
  firmAccountOutput,
  importAccountsInput,
  importOutput,
  updateAccountBody,
  updateContactBody,
} from "../domains/accounts/firm-schemas.ts";
import { csvImportHandler } from "./csv-upload.ts";
import { bodyOf, pageQuery, procedureRoute, type RestRoute } from "./route.ts";

const pageParams = listPageInput.extend({ offset: z.coerce.number().int().min(0).optional() });

/** The import's procedure, for a JSON body and for the text of an uploaded .csv file alike (csv-upload.ts). */
const importJson = procedureRoute({
  method: "post",
  path: "/admin/accounts/import",
  summary: "Import accounts from CSV text",
  tag: "admin",
  access: "admin",
  body: importAccountsInput,
  response: importOutput,
  call: (c, r) => c.admin.accounts.import(bodyOf(r)),
});

const importForm = z.object({
  file: z.string().meta({ format: "binary" }),
  dry_run: z.enum(["true", "false"]).optional(),
});

/** The firm's client accounts and their people (docs/decisions.md, "Client accounts (issue 32)"). */
export const adminAccountRoutes: RestRoute[] = [
  procedureRoute({
    method: "get",
    path: "/admin/accounts",
    summary: "Client accounts with their people, newest first; q matches the account's name or a person's name or email",
    tag: "admin",
    access: "admin",
    query: pageParams,
    paged: true,
    response: z.array(firmAccountOutput),
    call: (c, r) => {
      const { q, limit, cursor } = pageQuery(r);
      return c.admin.accounts.list({ q, limit, cursor });
    },
  }),
  procedureRoute({
    method: "post",
    path: "/admin/accounts",
    summary: "Create a client account (no people yet)",
    tag: "admin",
    access: "admin",
    body: createAccountInput,
    response: firmAccountOutput,
    status: 201,
    call: (c, r) => c.admin.accounts.create(bodyOf(r)),
  }),
  {
    method: "post",
    path: "/admin/accounts/import",
    summary:
      'Import accounts from a CSV file (account name, kind, person name, email): its text as JSON `csv`, or the .csv file itself as multipart/form-data in the field "file" (at most 1 MB); dry_run (default true) answers the preview only',
    tag: "admin",
    access: "admin",
    body: { json: importAccountsInput, multipart: importForm },
    response: importOutput,
    handler: (deps) => csvImportHandler(deps, importJson),
  },
  procedureRoute({
    method: "get",
    path: "/admin/accounts/:id",
    summary: "A client account with its people (invited ones not yet joined have user_id null)",
    tag: "admin",
    access: "admin",
    response: firmAccountOutput,
    call: (c, r) => c.admin.accounts.get({ id: r.params.id }),
  }),
  procedureRoute({
    method: "patch",
    path: "/admin/accounts/:id",
    summary: 'Rename a client account or change its kind, or mark reviewed ("claim_reviewed": true) what a claimed login left in it (claim_review)',
    tag: "admin",
    access: "admin",
    body: updateAccountBody,
    response: firmAccountOutput,
    call: (c, r) => c.admin.accounts.update({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "post",
    path: "/admin/accounts/:id/contacts",
    summary:
      "Add a person: an existing client who proved that address at once (told by email) when the caller reaches every account they are in; anyone else by an emailed invitation (someone who already uses the portal joins by accepting it signed in)",
    tag: "admin",
    access: "admin",
    body: addContactInput.omit({ id: true }),
    response: firmAccountOutput,
    status: 201,
    call: (c, r) => c.admin.accounts.addContact({ ...bodyOf(r), id: r.params.id }),
  }),
  procedureRoute({
    method: "patch",
    path: "/admin/accounts/:id/contacts/:userId",
    summary: "Change a person's role, portal access or emails (an account with people keeps an owner: 409)",
    tag: "admin",
    access: "admin",
    body: updateContactBody,
    response: firmAccountOutput,
    call: (c, r) => c.admin.accounts.updateContact({ ...bodyOf(r), id: r.params.id, userId: r.params.userId }),
  }),
  procedureRoute({
    method: "delete",
    path: "/admin/accounts/:id/contacts/:userId",
    summary: "Remove a person from an account: their access ends at once (an account with people keeps an owner: 409)",
    tag: "admin",
    access: "admin",
    response: firmAccountOutput,
    call: (c, r) => c.admin.accounts.removeContact({ id: r.params.id, userId: r.params.userId }),
  }),
];
