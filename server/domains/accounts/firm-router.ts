import { router } from "../../trpc/init.ts";
import { adminProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { pageOutput } from "../admin/schemas.ts";
import { importAccounts } from "./firm-import.ts";
import {
  accountIdInput,
  addContactInput,
  contactIdInput,
  createAccountInput,
  firmAccountOutput,
  importAccountsInput,
  importOutput,
  listAccountsInput,
  updateAccountInput,
  updateContactInput,
} from "./firm-schemas.ts";
import { accountDetail, accountPage, addContact, createAccount, removeContact, updateAccount, updateContact } from "./firm-service.ts";

/** The firm sub-router `admin.accounts`: any of the firm's people may look; changing needs manage_clients. */
export const accountsFirmRouter = router({
  list: adminProcedure
    .input(listAccountsInput)
    .output(pageOutput(firmAccountOutput))
    .query(({ ctx, input }) => accountPage(ctx, input)),
  get: adminProcedure
    .input(accountIdInput)
    .output(firmAccountOutput)
    .query(({ ctx, input }) => accountDetail(ctx, input)),
  create: staffProcedure("manage_clients")
    .input(createAccountInput)
    .output(firmAccountOutput)
    .mutation(({ ctx, input }) => createAccount(ctx, input)),
  update: staffProcedure("manage_clients")
    .input(updateAccountInput)
    .output(firmAccountOutput)
    .mutation(({ ctx, input }) => updateAccount(ctx, input)),
  addContact: staffProcedure("manage_clients")
    .input(addContactInput)
    .output(firmAccountOutput)
    .mutation(({ ctx, input }) => addContact(ctx, input)),
  updateContact: staffProcedure("manage_clients")
    .input(updateContactInput)
    .output(firmAccountOutput)
    .mutation(({ ctx, input }) => updateContact(ctx, input)),
  removeContact: staffProcedure("manage_clients")
    .input(contactIdInput)
    .output(firmAccountOutput)
    .mutation(({ ctx, input }) => removeContact(ctx, input)),
  import: staffProcedure("manage_clients")
    .input(importAccountsInput)
    .output(importOutput)
    .mutation(({ ctx, input }) => importAccounts(ctx, input)),
});
