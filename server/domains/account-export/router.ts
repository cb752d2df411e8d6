// An account's export: bytes, so REST streams it (GET /api/account/export, GET
// /api/admin/accounts/:id/export); not served at /trpc, as the other transfers.
import { router } from "../../trpc/init.ts";
import { clientProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { EXPORT_RIGHTS } from "../../trpc/staff-rights.ts";
import { idInput } from "../shared-schemas.ts";
import { planFirmExport, planOwnExport } from "./service.ts";

export const accountExportTransfersRouter = router({
  own: clientProcedure.query(({ ctx }) => planOwnExport(ctx)),
  /** The firm's: the client record's right and every right that shows a part of it (docs/safeguards.md, "Export"). */
  forFirm: staffProcedure(...EXPORT_RIGHTS)
    .input(idInput)
    .query(({ ctx, input }) => planFirmExport(ctx, input)),
});
