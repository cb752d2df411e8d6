import { router } from "../../trpc/init.ts";
import { authedProcedure, clientProcedure } from "../../trpc/procedures.ts";
import { accountOutput } from "../accounts/schemas.ts";
import { joinAccount } from "./join.ts";
import { contactOutput, inviteContactInput, joinAccountInput, removeContactInput, updateContactRoleInput } from "./schemas.ts";
import { inviteContact, listContacts, removeContact, updateContactRole } from "./service.ts";

/** The current account's people (any contact lists; owners invite and remove), and joining by a link. */
export const accountContactsRouter = router({
  list: clientProcedure.output(contactOutput.array()).query(({ ctx }) => listContacts(ctx)),
  invite: clientProcedure
    .input(inviteContactInput)
    .output(contactOutput)
    .mutation(({ ctx, input }) => inviteContact(ctx, input)),
  updateRole: clientProcedure
    .input(updateContactRoleInput)
    .output(contactOutput)
    .mutation(({ ctx, input }) => updateContactRole(ctx, input)),
  remove: clientProcedure.input(removeContactInput).mutation(({ ctx, input }) => removeContact(ctx, input)),
  // authedProcedure: someone who reaches no account yet may still join one.
  join: authedProcedure
    .input(joinAccountInput)
    .output(accountOutput)
    .mutation(({ ctx, input }) => joinAccount(ctx, input)),
});
