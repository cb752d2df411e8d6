import { staffProcedure } from "../../trpc/procedures.ts";
import { idInput } from "../shared-schemas.ts";
import { accountLegalHoldOutput, dueListOutput, placeLegalHoldInput, retentionSettingsOutput, updateRetentionInput } from "./schemas.ts";
import { clearLegalHold, dueForDisposal, legalHoldOf, placeLegalHold, retentionSettings, updateRetentionSettings } from "./service.ts";

/** Spread into the admin router: the firm's retention rules, what is due, and legal holds (the settings right). */
export const retentionAdminProcedures = {
  retention: staffProcedure("settings")
    .output(retentionSettingsOutput)
    .query(({ ctx }) => retentionSettings(ctx)),
  updateRetention: staffProcedure("settings")
    .input(updateRetentionInput)
    .output(retentionSettingsOutput)
    .mutation(({ ctx, input }) => updateRetentionSettings(ctx, input)),
  retentionDue: staffProcedure("settings")
    .output(dueListOutput)
    .query(({ ctx }) => dueForDisposal(ctx)),
  legalHold: staffProcedure("settings")
    .input(idInput)
    .output(accountLegalHoldOutput)
    .query(({ ctx, input }) => legalHoldOf(ctx, input)),
  placeLegalHold: staffProcedure("settings")
    .input(placeLegalHoldInput)
    .output(accountLegalHoldOutput)
    .mutation(({ ctx, input }) => placeLegalHold(ctx, input)),
  clearLegalHold: staffProcedure("settings")
    .input(idInput)
    .output(accountLegalHoldOutput)
    .mutation(({ ctx, input }) => clearLegalHold(ctx, input)),
};
