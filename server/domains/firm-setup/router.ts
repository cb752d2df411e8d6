import { router } from "../../trpc/init.ts";
import { adminProcedure, authedProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { setupChecklistHiddenInput, taxYearInput } from "./schemas.ts";
import { setSetupChecklistHidden, setTaxYear, setupChecklist, taxYear } from "./service.ts";

/** What a signed-in client reads of the firm's setup: the year of the Tax Forms tab. */
export const firmRouter = router({
  taxYear: authedProcedure.query(({ ctx }) => taxYear(ctx)),
});

/** The firm's first setup, the firm sub-router `admin.firm`. */
export const firmSetupFirmRouter = router({
  taxYear: staffProcedure("site").query(({ ctx }) => taxYear(ctx)),
  setTaxYear: staffProcedure("site")
    .input(taxYearInput)
    .mutation(({ ctx, input }) => setTaxYear(ctx, input)),
  setupChecklist: adminProcedure.query(({ ctx }) => setupChecklist(ctx)),
  setSetupChecklistHidden: staffProcedure("settings")
    .input(setupChecklistHiddenInput)
    .mutation(({ ctx, input }) => setSetupChecklistHidden(ctx, input)),
});
