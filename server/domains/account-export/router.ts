// An account's export: bytes, so REST streams it (GET /api/account/export, GET
// /api/admin/accounts/:id/export); not served at /trpc, as the other transfers.
import { router } from "../../trpc/init.ts";
import { clientProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { idInput } from "../shared-schemas.ts";
import { planFirmExport, planOwnExport } from "./service.ts";

export const accountExportTransfersRouter = router({
  own: clientProcedure.query(({ ctx }) => planOwnExport(ctx)),
  /** The firm's: managing a client's record, as deleting one is (docs/safeguards.md, "Export"). */
  forFirm: staffProcedure("manage_clients")
    .input(idInput)
    .query(({ ctx, input }) => planFirmExport(ctx, input)),
});
