import { adminProcedure } from "../../trpc/procedures.ts";
import { successOutput } from "../shared-schemas.ts";
import { accountNoteOutput, accountNotesInput, createNoteInput, noteIdInput, updateNoteInput } from "./schemas.ts";
import { accountNotes, createAccountNote, deleteAccountNote, updateAccountNote } from "./service.ts";

/** Spread into the admin router: anyone of the firm who reaches the account; changes by the note's author only (service.ts). */
export const accountNotesAdminProcedures = {
  accountNotes: adminProcedure
    .input(accountNotesInput)
    .output(accountNoteOutput.array())
    .query(({ ctx, input }) => accountNotes(ctx, input)),
  createAccountNote: adminProcedure
    .input(createNoteInput)
    .output(accountNoteOutput)
    .mutation(({ ctx, input }) => createAccountNote(ctx, input)),
  updateAccountNote: adminProcedure
    .input(updateNoteInput)
    .output(accountNoteOutput)
    .mutation(({ ctx, input }) => updateAccountNote(ctx, input)),
  deleteAccountNote: adminProcedure
    .input(noteIdInput)
    .output(successOutput)
    .mutation(({ ctx, input }) => deleteAccountNote(ctx, input)),
};
