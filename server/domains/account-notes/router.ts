import { router } from "../../trpc/init.ts";
import { adminProcedure } from "../../trpc/procedures.ts";
import { successOutput } from "../shared-schemas.ts";
import { accountNoteOutput, accountNotesInput, createNoteInput, noteIdInput, updateNoteInput } from "./schemas.ts";
import { accountNotes, createAccountNote, deleteAccountNote, updateAccountNote } from "./service.ts";

/** The firm sub-router `admin.accountNotes`: anyone of the firm who reaches the account; changes by the note's author only (service.ts). */
export const accountNotesFirmRouter = router({
  list: adminProcedure
    .input(accountNotesInput)
    .output(accountNoteOutput.array())
    .query(({ ctx, input }) => accountNotes(ctx, input)),
  create: adminProcedure
    .input(createNoteInput)
    .output(accountNoteOutput)
    .mutation(({ ctx, input }) => createAccountNote(ctx, input)),
  update: adminProcedure
    .input(updateNoteInput)
    .output(accountNoteOutput)
    .mutation(({ ctx, input }) => updateAccountNote(ctx, input)),
  delete: adminProcedure
    .input(noteIdInput)
    .output(successOutput)
    .mutation(({ ctx, input }) => deleteAccountNote(ctx, input)),
});
