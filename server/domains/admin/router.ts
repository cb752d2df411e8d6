import { router } from "../../trpc/init.ts";
import { adminProcedure, publicProcedure } from "../../trpc/procedures.ts";
import { appointmentCalendar } from "../appointments/booking.ts";
import { appointmentCalendarInput, createAppointmentInput, updateAppointmentInput } from "../appointments/schemas.ts";
import { changeAppointment, createAppointmentForClient } from "../appointments/service.ts";
import { activityAdminProcedures } from "../activity/router.ts";
import { inboxAdminProcedures } from "../inbox/router.ts";
import { availabilityAdminProcedures } from "../availability/router.ts";
import { firmDocumentsAdminProcedures } from "../firm-documents/router.ts";
import { invitationAdminProcedures } from "../invitations/router.ts";
import { requestAdminProcedures } from "../requests/router.ts";
import { messageAdminProcedures } from "../messages/router.ts";
import { loginInput } from "../auth/schemas.ts";
import { loginWithPassword } from "../auth/service.ts";
import { resendConsultationNotification } from "../consultation/service.ts";
import { idInput } from "../shared-schemas.ts";
import { updateSiteContentInput, updateTestimonialsInput } from "../site/schemas.ts";
import { initSiteContent, saveTestimonials, storedSiteContent, updateSiteValue } from "../site/service.ts";
import { siteEditorProcedures } from "../site/router.ts";
import { securitySettingsProcedures } from "../account/router.ts";
import { appointmentListInput, consultationIdInput, listPageInput, setUserQuotaInput } from "./schemas.ts";
import {
  adminStats,
  appointmentPage,
  consultationPage,
  deleteAnyDocument,
  deleteUser,
  documentPage,
  markConsultationHandled,
  restoreAnyDocument,
  setUserQuota,
  trashPage,
  userPage,
} from "./service.ts";

export const adminRouter = router({
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => loginWithPassword(ctx, input, "admin")),
  /** The signed-in admin. */
  me: adminProcedure.query(({ ctx }) => ctx.user),
  stats: adminProcedure.query(({ ctx }) => adminStats(ctx)),
  users: adminProcedure.input(listPageInput).query(({ ctx, input }) => userPage(ctx, input)),
  deleteUser: adminProcedure.input(idInput).mutation(({ ctx, input }) => deleteUser(ctx, input)),
  setUserQuota: adminProcedure.input(setUserQuotaInput).mutation(({ ctx, input }) => setUserQuota(ctx, input)),
  documents: adminProcedure.input(listPageInput).query(({ ctx, input }) => documentPage(ctx, input)),
  /** Moves the document to its owner's trash. */
  deleteDocument: adminProcedure.input(idInput).mutation(({ ctx, input }) => deleteAnyDocument(ctx, input)),
  trash: adminProcedure.input(listPageInput).query(({ ctx, input }) => trashPage(ctx, input)),
  restoreDocument: adminProcedure.input(idInput).mutation(({ ctx, input }) => restoreAnyDocument(ctx, input)),
  /** Only what is stored: an empty map makes the admin page offer Initialize Site Content. */
  siteContent: adminProcedure.query(({ ctx }) => storedSiteContent(ctx)),
  updateSiteContent: adminProcedure.input(updateSiteContentInput).mutation(({ ctx, input }) => updateSiteValue(ctx, input)),
  initSiteContent: adminProcedure.mutation(({ ctx }) => initSiteContent(ctx)),
  updateTestimonials: adminProcedure.input(updateTestimonialsInput).mutation(({ ctx, input }) => saveTestimonials(ctx, input.testimonials)),
  ...siteEditorProcedures,
  ...securitySettingsProcedures,
  consultations: adminProcedure.input(listPageInput).query(({ ctx, input }) => consultationPage(ctx, input)),
  setConsultationHandled: adminProcedure.input(consultationIdInput).mutation(({ ctx, input }) => markConsultationHandled(ctx, input)),
  /** Sends again the firm's email about a request whose every try failed (409 otherwise). */
  resendConsultationEmail: adminProcedure.input(idInput).mutation(({ ctx, input }) => resendConsultationNotification(ctx, input)),
  appointments: adminProcedure.input(appointmentListInput).query(({ ctx, input }) => appointmentPage(ctx, input)),
  createAppointment: adminProcedure.input(createAppointmentInput).mutation(({ ctx, input }) => createAppointmentForClient(ctx, input)),
  updateAppointment: adminProcedure.input(updateAppointmentInput).mutation(({ ctx, input }) => changeAppointment(ctx, input)),
  /** The week view: appointments starting in [from, to). */
  appointmentCalendar: adminProcedure.input(appointmentCalendarInput).query(({ ctx, input }) => appointmentCalendar(ctx, input)),
  ...availabilityAdminProcedures,
  ...activityAdminProcedures,
  ...inboxAdminProcedures,
  ...firmDocumentsAdminProcedures,
  ...invitationAdminProcedures,
  ...requestAdminProcedures,
  ...messageAdminProcedures,
});
