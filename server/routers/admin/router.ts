import { router } from "../../trpc/init.ts";
import { adminProcedure, publicProcedure } from "../../trpc/procedures.ts";
import { type Appointment, createAppointmentInput, updateAppointmentInput } from "../appointments/schemas.ts";
import { loginInput, type PublicUser } from "../auth/schemas.ts";
import { loginWithPassword } from "../auth/service.ts";
import type { DocumentItem } from "../documents/schemas.ts";
import { type SiteContent, updateSiteContentInput, updateTestimonialsInput } from "../site/schemas.ts";
import { initSiteContent, saveTestimonials, storedSiteContent, updateSiteValue } from "../site/service.ts";
import { changeAppointment, createAppointmentForClient } from "../appointments/service.ts";
import {
  appointmentListInput,
  consultationIdInput,
  documentIdInput,
  listPageInput,
  type Page,
  setUserQuotaInput,
  userIdInput,
} from "./schemas.ts";
import {
  adminStats,
  appointmentPage,
  consultationPage,
  deleteAnyDocument,
  deleteUser,
  documentPage,
  markConsultationHandled,
  setUserQuota,
  userPage,
} from "./service.ts";

export type AdminStats = {
  stats: { total_users: number; total_documents: number; total_appointments: number; total_folders: number };
  recent_users: PublicUser[];
  recent_documents: AdminDocument[];
};
/** A client's storage: bytes used, their quota in bytes, and the quota the firm set (null: the default). */
export type UserStorage = { id: string; used_bytes: number; quota_bytes: number; quota_mb: number | null };
export type AdminUser = PublicUser & Omit<UserStorage, "id">;
export type AdminDocument = DocumentItem & { user_id: string; user_name: string; user_email: string };
export type AdminAppointment = Appointment & { user_id: string; user_name: string; user_email: string };
export type ConsultationRequest = {
  id: string;
  name: string;
  email: string;
  phone: string;
  service: string | null;
  preferredDate: string | null;
  preferredTime: string | null;
  message: string;
  created_at: Date;
  handled_at: Date | null;
  /** Null until the email to the firm went out (it is retried, then reported in the log). */
  email_sent_at: Date | null;
};

export const adminRouter = router({
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => loginWithPassword(ctx, input, "admin")),
  /** The signed-in admin; also how the REST download route checks for an admin session. */
  me: adminProcedure.query(({ ctx }): PublicUser => ctx.user),
  stats: adminProcedure.query(({ ctx }) => adminStats(ctx)),
  users: adminProcedure.input(listPageInput).query(({ ctx, input }): Promise<Page<AdminUser>> => userPage(ctx, input)),
  deleteUser: adminProcedure.input(userIdInput).mutation(({ ctx, input }) => deleteUser(ctx, input.id)),
  setUserQuota: adminProcedure.input(setUserQuotaInput).mutation(({ ctx, input }) => setUserQuota(ctx, input)),
  documents: adminProcedure.input(listPageInput).query(({ ctx, input }): Promise<Page<AdminDocument>> => documentPage(ctx, input)),
  deleteDocument: adminProcedure.input(documentIdInput).mutation(({ ctx, input }) => deleteAnyDocument(ctx, input.id)),
  /** Only what is stored: an empty map makes the admin page offer Initialize Site Content. */
  siteContent: adminProcedure.query(({ ctx }): Promise<SiteContent> => storedSiteContent(ctx)),
  updateSiteContent: adminProcedure.input(updateSiteContentInput).mutation(({ ctx, input }) => updateSiteValue(ctx, input)),
  initSiteContent: adminProcedure.mutation(({ ctx }) => initSiteContent(ctx)),
  updateTestimonials: adminProcedure.input(updateTestimonialsInput).mutation(({ ctx, input }) => saveTestimonials(ctx, input.testimonials)),
  consultations: adminProcedure
    .input(listPageInput)
    .query(({ ctx, input }): Promise<Page<ConsultationRequest>> => consultationPage(ctx, input)),
  setConsultationHandled: adminProcedure.input(consultationIdInput).mutation(({ ctx, input }) => markConsultationHandled(ctx, input)),
  appointments: adminProcedure
    .input(appointmentListInput)
    .query(({ ctx, input }): Promise<Page<AdminAppointment>> => appointmentPage(ctx, input)),
  createAppointment: adminProcedure
    .input(createAppointmentInput)
    .mutation(({ ctx, input }): Promise<AdminAppointment> => createAppointmentForClient(ctx, input)),
  updateAppointment: adminProcedure
    .input(updateAppointmentInput)
    .mutation(({ ctx, input }): Promise<AdminAppointment> => changeAppointment(ctx, input)),
});
