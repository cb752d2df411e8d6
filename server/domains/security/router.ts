import { router } from "../../trpc/init.ts";
import { ownerProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { accessLogInput, endAllSessionsInput, endAllSessionsOutput } from "./schemas.ts";
import { accessLogFilters, endAllSessions } from "./service.ts";

/** The firm sub-router `admin.security`: `admin.security.endAllSessions`, the owner's alone. */
export const securityFirmRouter = router({
  endAllSessions: ownerProcedure
    .input(endAllSessionsInput)
    .output(endAllSessionsOutput)
    .mutation(({ ctx }) => endAllSessions(ctx)),
});

/** For the access log's CSV (REST only, never served at /trpc): checks the caller and the window; the route streams the rows. */
export const accessLogRouter = router({
  filters: staffProcedure("activity")
    .input(accessLogInput)
    .query(({ ctx, input }) => accessLogFilters(ctx, input)),
});
