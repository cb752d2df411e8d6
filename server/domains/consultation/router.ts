import { router } from "../../trpc/init.ts";
import { publicProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { consultationIdInput, listPageInput } from "../admin/schemas.ts";
import { idInput } from "../shared-schemas.ts";
import { consultationRequestInput } from "./schemas.ts";
import { invitationOutput } from "../invitations/schemas.ts";
import { consultationPage, inviteConsultation, markConsultationHandled, requestConsultation, resendConsultationNotification } from "./service.ts";

export const consultationRouter = router({
  request: publicProcedure.input(consultationRequestInput).mutation(({ ctx, input }) => requestConsultation(ctx, input)),
});

/** The firm's view of the requests, the firm sub-router `admin.consultations`: `admin.consultations.list`, ... */
export const consultationFirmRouter = router({
  list: staffProcedure("manage_clients")
    .input(listPageInput)
    .query(({ ctx, input }) => consultationPage(ctx, input)),
  setHandled: staffProcedure("manage_clients")
    .input(consultationIdInput)
    .mutation(({ ctx, input }) => markConsultationHandled(ctx, input)),
  /** Sends again the firm's email about a request whose every try failed (409 otherwise). */
  resendEmail: staffProcedure("manage_clients")
    .input(idInput)
    .mutation(({ ctx, input }) => resendConsultationNotification(ctx, input)),
  /** Invites the request's person as a client (account and invitation) and marks the request handled. */
  invite: staffProcedure("manage_clients")
    .input(idInput)
    .output(invitationOutput)
    .mutation(({ ctx, input }) => inviteConsultation(ctx, input)),
});
