// The admin.* namespace. Each domain exports its admin procedures (`<domain>AdminProcedures`, wiring
// only, calling that domain's service); this router only gathers them beside what is the admin's
// own: signing in, the signed-in person (their role and rights), the counts, and the users with their quotas.
import { router } from "../../trpc/init.ts";
import { adminProcedure, publicProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { accountAdminProcedures } from "../profile/router.ts";
import { accountNotesAdminProcedures } from "../account-notes/router.ts";
import { accountsAdminProcedures } from "../accounts/firm-router.ts";
import { activityAdminProcedures } from "../activity/router.ts";
import { appointmentsAdminProcedures } from "../appointments/router.ts";
import { loginInput } from "../auth/schemas.ts";
import { loginWithPassword } from "../auth/service.ts";
import { availabilityAdminProcedures } from "../availability/router.ts";
import { consultationAdminProcedures } from "../consultation/router.ts";
import { documentsAdminProcedures } from "../documents/router.ts";
import { firmDocumentsAdminProcedures } from "../firm-documents/router.ts";
import { firmSetupAdminProcedures } from "../firm-setup/router.ts";
import { inboxAdminProcedures } from "../inbox/router.ts";
import { invitationsAdminProcedures } from "../invitations/router.ts";
import { messagesAdminProcedures } from "../messages/router.ts";
import { organizersAdminProcedures } from "../organizers/router.ts";
import { requestsAdminProcedures } from "../requests/router.ts";
import { retentionAdminProcedures } from "../retention/router.ts";
import { idInput } from "../shared-schemas.ts";
import { securityAdminProcedures } from "../security/router.ts";
import { signaturesAdminProcedures } from "../signatures/router.ts";
import { siteAdminProcedures } from "../site/router.ts";
import { siteMediaAdminProcedures } from "../site-media/router.ts";
import { adminMeOutput } from "../staff/schemas.ts";
import { adminMe } from "../staff/service.ts";
import { staffAdminProcedures } from "../staff/router.ts";
import { listPageInput, setUserQuotaInput } from "./schemas.ts";
import { adminStats, deleteUserForFirm, setUserQuota, userPage } from "./service.ts";

const ownProcedures = {
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => loginWithPassword(ctx, input, "admin")),
  /** The signed-in person of the firm, with their role and rights (what the portal may offer them). */
  me: adminProcedure.output(adminMeOutput).query(({ ctx }) => adminMe(ctx)),
  stats: adminProcedure.query(({ ctx }) => adminStats(ctx)),
  users: adminProcedure.input(listPageInput).query(({ ctx, input }) => userPage(ctx, input)),
  deleteUser: staffProcedure("manage_clients")
    .input(idInput)
    .mutation(({ ctx, input }) => deleteUserForFirm(ctx, input)),
  setUserQuota: staffProcedure("manage_clients")
    .input(setUserQuotaInput)
    .mutation(({ ctx, input }) => setUserQuota(ctx, input)),
};

export const adminRouter = router({
  ...ownProcedures,
  ...documentsAdminProcedures,
  ...siteAdminProcedures,
  ...siteMediaAdminProcedures,
  ...accountAdminProcedures,
  ...consultationAdminProcedures,
  ...appointmentsAdminProcedures,
  ...availabilityAdminProcedures,
  ...activityAdminProcedures,
  ...inboxAdminProcedures,
  ...firmDocumentsAdminProcedures,
  ...invitationsAdminProcedures,
  ...requestsAdminProcedures,
  ...organizersAdminProcedures,
  ...messagesAdminProcedures,
  ...firmSetupAdminProcedures,
  ...staffAdminProcedures,
  ...accountsAdminProcedures,
  ...accountNotesAdminProcedures,
  ...securityAdminProcedures,
  ...signaturesAdminProcedures,
  ...retentionAdminProcedures,
});
