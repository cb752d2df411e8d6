import { router } from "../../trpc/init.ts";
import { notImplemented } from "../../trpc/not-implemented.ts";
import { adminProcedure, publicProcedure } from "../../trpc/procedures.ts";
import { type Appointment, createAppointmentInput, updateAppointmentInput } from "../appointments/schemas.ts";
import { loginInput, type PublicUser } from "../auth/schemas.ts";
import { loginWithPassword } from "../auth/service.ts";
import type { DocumentItem } from "../documents/schemas.ts";
import { type SiteContent, updateSiteContentInput, updateTestimonialsInput } from "../site/schemas.ts";
import {
  appointmentListInput,
  consultationIdInput,
  documentIdInput,
  listPageInput,
  type Page,
  userIdInput,
} from "./schemas.ts";

export type AdminStats = {
  stats: { total_users: number; total_documents: number; total_appointments: number; total_folders: number };
  recent_users: PublicUser[];
  recent_documents: AdminDocument[];
};
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
};

export const adminRouter = router({
  login: publicProcedure.input(loginInput).mutation(({ ctx, input }) => loginWithPassword(ctx, input, "admin")),
  stats: adminProcedure.query(async (): Promise<AdminStats> => notImplemented()),
  users: adminProcedure.input(listPageInput).query(async (): Promise<Page<PublicUser>> => notImplemented()),
  deleteUser: adminProcedure.input(userIdInput).mutation(async (): Promise<{ success: true }> => notImplemented()),
  documents: adminProcedure.input(listPageInput).query(async (): Promise<Page<AdminDocument>> => notImplemented()),
  deleteDocument: adminProcedure.input(documentIdInput).mutation(async (): Promise<{ success: true }> => notImplemented()),
  siteContent: adminProcedure.query(async (): Promise<SiteContent> => notImplemented()),
  updateSiteContent: adminProcedure.input(updateSiteContentInput).mutation(async (): Promise<{ success: true }> => notImplemented()),
  initSiteContent: adminProcedure.mutation(async (): Promise<{ success: true }> => notImplemented()),
  updateTestimonials: adminProcedure.input(updateTestimonialsInput).mutation(async (): Promise<{ success: true }> => notImplemented()),
  consultations: adminProcedure.input(listPageInput).query(async (): Promise<Page<ConsultationRequest>> => notImplemented()),
  setConsultationHandled: adminProcedure.input(consultationIdInput).mutation(async (): Promise<{ success: true }> => notImplemented()),
  appointments: adminProcedure.input(appointmentListInput).query(async (): Promise<Page<AdminAppointment>> => notImplemented()),
  createAppointment: adminProcedure.input(createAppointmentInput).mutation(async (): Promise<AdminAppointment> => notImplemented()),
  updateAppointment: adminProcedure.input(updateAppointmentInput).mutation(async (): Promise<AdminAppointment> => notImplemented()),
});
