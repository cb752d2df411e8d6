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

/** Spread into the admin router: any of the firm's people may look; changing needs manage_clients. */
export const accountsAdminProcedures = {
  accounts: adminProcedure
    .input(listAccountsInput)
    .output(pageOutput(firmAccountOutput))
    .query(({ ctx, input }) => accountPage(ctx, input)),
  account: adminProcedure
    .input(accountIdInput)
    .output(firmAccountOutput)
    .query(({ ctx, input }) => accountDetail(ctx, input)),
  createAccount: staffProcedure("manage_clients")
    .input(createAccountInput)
    .output(firmAccountOutput)
    .mutation(({ ctx, input }) => createAccount(ctx, input)),
  updateAccount: staffProcedure("manage_clients")
    .input(updateAccountInput)
    .output(firmAccountOutput)
    .mutation(({ ctx, input }) => updateAccount(ctx, input)),
  addAccountContact: staffProcedure("manage_clients")
    .input(addContactInput)
    .output(firmAccountOutput)
    .mutation(({ ctx, input }) => addContact(ctx, input)),
  updateAccountContact: staffProcedure("manage_clients")
    .input(updateContactInput)
    .output(firmAccountOutput)
    .mutation(({ ctx, input }) => updateContact(ctx, input)),
  removeAccountContact: staffProcedure("manage_clients")
    .input(contactIdInput)
    .output(firmAccountOutput)
    .mutation(({ ctx, input }) => removeContact(ctx, input)),
  importAccounts: staffProcedure("manage_clients")
    .input(importAccountsInput)
    .output(importOutput)
    .mutation(({ ctx, input }) => importAccounts(ctx, input)),
};
