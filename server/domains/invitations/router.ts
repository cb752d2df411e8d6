import { router } from "../../trpc/init.ts";
import { publicProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { idInput } from "../shared-schemas.ts";
import { acceptInvitation, peekInvitation } from "./accept.ts";
import {
  acceptInvitationInput,
  acceptInvitationOutput,
  createInvitationInput,
  invitationOutput,
  invitationPeekOutput,
  invitationTokenInput,
  listInvitationsInput,
  registrationOutput,
  setRegistrationInput,
} from "./schemas.ts";
import {
  createInvitation,
  invitationList,
  registrationSetting,
  resendInvitation,
  revokeInvitationById,
  updateRegistrationSetting,
} from "./service.ts";

/** The firm sub-router `admin.invitations`: `admin.invitations.list`, `admin.invitations.create`, ... */
export const invitationsFirmRouter = router({
  list: staffProcedure("manage_clients")
    .input(listInvitationsInput)
    .output(invitationOutput.array())
    .query(({ ctx, input }) => invitationList(ctx, input)),
  create: staffProcedure("manage_clients")
    .input(createInvitationInput)
    .output(invitationOutput)
    .mutation(({ ctx, input }) => createInvitation(ctx, input)),
  /** A new link (the old one dies) and another 7 days. */
  resend: staffProcedure("manage_clients")
    .input(idInput)
    .output(invitationOutput)
    .mutation(({ ctx, input }) => resendInvitation(ctx, input)),
  revoke: staffProcedure("manage_clients")
    .input(idInput)
    .mutation(({ ctx, input }) => revokeInvitationById(ctx, input)),
  registration: staffProcedure("settings")
    .output(registrationOutput)
    .query(({ ctx }) => registrationSetting(ctx)),
  updateRegistration: staffProcedure("settings")
    .input(setRegistrationInput)
    .output(registrationOutput)
    .mutation(({ ctx, input }) => updateRegistrationSetting(ctx, input)),
});

/** Spread into the auth router: what the landing page's Register tab and an invitation's link use. */
export const invitationPublicProcedures = {
  /** Whether the Register tab offers its form, or says registration is by invitation only. */
  registration: publicProcedure.output(registrationOutput).query(({ ctx }) => registrationSetting(ctx)),
  /** Whom an invitation's link is for, without spending it; a mutation so the token stays out of URLs and logs. */
  checkInvitation: publicProcedure
    .input(invitationTokenInput)
    .output(invitationPeekOutput)
    .mutation(({ ctx, input }) => peekInvitation(ctx, input)),
  acceptInvitation: publicProcedure
    .input(acceptInvitationInput)
    .output(acceptInvitationOutput)
    .mutation(({ ctx, input }) => acceptInvitation(ctx, input)),
};
