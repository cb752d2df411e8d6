import { router } from "../../trpc/init.ts";
import { clientProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { activityPageOutput, activitySettingsOutput, adminActivityInput, ownActivityInput, updateActivitySettingsInput } from "./schemas.ts";
import { activitySettings, filtersOf, firmActivity, ownActivity, updateActivitySettings } from "./service.ts";

export const activityRouter = router({
  list: clientProcedure
    .input(ownActivityInput)
    .output(activityPageOutput)
    .query(({ ctx, input }) => ownActivity(ctx.db, { accountId: ctx.account.id, personId: ctx.user.id }, input)),
});

/** The firm sub-router `admin.activity`: `admin.activity.list`. */
export const activityFirmRouter = router({
  list: staffProcedure("activity")
    .input(adminActivityInput)
    .output(activityPageOutput)
    .query(({ ctx, input }) => firmActivity(ctx, input)),
  settings: staffProcedure("settings")
    .output(activitySettingsOutput)
    .query(({ ctx }) => activitySettings(ctx)),
  updateSettings: staffProcedure("settings")
    .input(updateActivitySettingsInput)
    .output(activitySettingsOutput)
    .mutation(({ ctx, input }) => updateActivitySettings(ctx, input)),
});

/** For the CSV export (REST only, never served at /trpc): checks the caller and the filters; the route then streams every matching row. */
export const activityExportRouter = router({
  filters: staffProcedure("activity")
    .input(adminActivityInput.omit({ cursor: true, limit: true }))
    .query(({ ctx, input }) => filtersOf(ctx, input)),
});
