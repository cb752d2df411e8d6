import { router } from "../../trpc/init.ts";
import { staffProcedure } from "../../trpc/procedures.ts";
import { idInput } from "../shared-schemas.ts";
import { accountLegalHoldOutput, dueListOutput, placeLegalHoldInput, retentionSettingsOutput, updateRetentionInput } from "./schemas.ts";
import { clearLegalHold, dueForDisposal, legalHoldOf, placeLegalHold, retentionSettings, updateRetentionSettings } from "./service.ts";

/** The firm sub-router `admin.retention`: the firm's retention rules, what is due, and legal holds (the settings right). */
export const retentionFirmRouter = router({
  get: staffProcedure("settings")
    .output(retentionSettingsOutput)
    .query(({ ctx }) => retentionSettings(ctx)),
  update: staffProcedure("settings")
    .input(updateRetentionInput)
    .output(retentionSettingsOutput)
    .mutation(({ ctx, input }) => updateRetentionSettings(ctx, input)),
  due: staffProcedure("settings")
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
});
