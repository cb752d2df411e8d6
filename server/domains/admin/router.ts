// The admin.* namespace: one firm sub-router per domain (`admin.<domain>`, wiring only, calling that
// domain's service; named after its REST resource where one exists: `admin.requests.list` answers GET
// /api/admin/requests) beside what is the admin's own: signing in, the signed-in person (their role
// and rights), the counts, and the users with their quotas. Sub-routers are values, not spreads, so
// two procedures cannot share a name (docs/architecture.md, "The firm's API").
import { router } from "../../trpc/init.ts";
import { adminProcedure, publicProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { securitySettingsFirmRouter } from "../profile/router.ts";
import { accountNotesFirmRouter } from "../account-notes/router.ts";
import { accountsFirmRouter } from "../accounts/firm-router.ts";
import { activityFirmRouter } from "../activity/router.ts";
import { appointmentsFirmRouter } from "../appointments/router.ts";
import { loginInput } from "../auth/schemas.ts";
import { loginWithPassword } from "../auth/service.ts";
import { availabilityFirmRouter } from "../availability/router.ts";
import { consultationFirmRouter } from "../consultation/router.ts";
import { documentsFirmRouter } from "../documents/router.ts";
import { firmDocumentsFirmRouter } from "../firm-documents/router.ts";
import { firmSetupFirmRouter } from "../firm-setup/router.ts";
import { inboxFirmRouter } from "../inbox/router.ts";
import { invitationsFirmRouter } from "../invitations/router.ts";
import { messagesFirmRouter } from "../messages/router.ts";
import { organizersFirmRouter } from "../organizers/router.ts";
import { requestsFirmRouter } from "../requests/router.ts";
import { retentionFirmRouter } from "../retention/router.ts";
import { idInput } from "../shared-schemas.ts";
import { securityFirmRouter } from "../security/router.ts";
import { signaturesFirmRouter } from "../signatures/router.ts";
import { siteFirmRouter } from "../site/router.ts";
import { siteMediaFirmRouter } from "../site-media/router.ts";
import { adminMeOutput } from "../staff/schemas.ts";
import { adminMe } from "../staff/service.ts";
import { staffFirmRouter } from "../staff/router.ts";
import { listPageInput, setUserQuotaInput } from "./schemas.ts";
import { adminStats, deleteUserForFirm, setUserQuota, userPage } from "./service.ts";

export const adminRouter = router({
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

  accounts: accountsFirmRouter,
  accountNotes: accountNotesFirmRouter,
  activity: activityFirmRouter,
  appointments: appointmentsFirmRouter,
  availability: availabilityFirmRouter,
  clients: firmDocumentsFirmRouter,
  consultations: consultationFirmRouter,
  documents: documentsFirmRouter,
  firm: firmSetupFirmRouter,
  inbox: inboxFirmRouter,
  invitations: invitationsFirmRouter,
  messages: messagesFirmRouter,
  organizers: organizersFirmRouter,
  requests: requestsFirmRouter,
  retention: retentionFirmRouter,
  security: securityFirmRouter,
  securitySettings: securitySettingsFirmRouter,
  signatures: signaturesFirmRouter,
  siteContent: siteFirmRouter,
  siteMedia: siteMediaFirmRouter,
  staff: staffFirmRouter,
});
