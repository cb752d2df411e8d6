// Shared by the security tests: calling tRPC over HTTP the way the web client does (superjson),
// the rules of who may call what, and the REST paths Express actually serves.
import type { Express } from "express";
import { createHash, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { Kysely } from "kysely";
import type { Database } from "../../server/db/types.ts";
import type { ObjectStorage } from "../../server/storage/storage.ts";
import type { ApiClient, ApiResponse } from "../helpers/http.ts";

export type Access = "public" | "authed" | "admin";

/**
 * Who may call each tRPC procedure. A procedure added to the router without a line here fails the
 * authorization matrix: new procedures are private until someone decides otherwise.
 */
export const PROCEDURE_ACCESS: Record<string, Access> = {
  "auth.register": "public",
  "auth.login": "public",
  "auth.logout": "public",
  "auth.session": "public",
  "auth.forgotPassword": "public",
  "auth.resetPassword": "public",
  "auth.checkResetToken": "public",
  "auth.verifyEmail": "public",
  "auth.profile": "public",
  "auth.googleStatus": "public",
  "consultation.request": "public",
  "site.content": "public",
  "site.links": "public",
  "admin.login": "public",
  "auth.loginTwoFactor": "public",
  "auth.enrolmentSetup": "public",
  "auth.enrolmentEnable": "public",
  "auth.passkeyLoginOptions": "public",
  "auth.passkeyLogin": "public",
  "auth.confirmEmailChange": "public",
  "auth.cancelEmailChange": "public",
  "auth.me": "authed",
  "account.overview": "authed",
  "account.updateProfile": "authed",
  "account.changePassword": "authed",
  "account.changeEmail": "authed",
  "account.deleteAccount": "authed",
  "account.proveIdentity": "authed",
  "account.sessions": "authed",
  "account.revokeSession": "authed",
  "account.revokeOtherSessions": "authed",
  "account.setupTwoFactor": "authed",
  "account.enableTwoFactor": "authed",
  "account.disableTwoFactor": "authed",
  "account.regenerateBackupCodes": "authed",
  "account.passkeys": "authed",
  "account.passkeyRegistrationOptions": "authed",
  "account.registerPasskey": "authed",
  "account.deletePasskey": "authed",
  "auth.resendVerification": "authed",
  "accounts.list": "authed",
  "accounts.switch": "authed",
  "accounts.current": "authed",
  "folders.list": "authed",
  "folders.create": "authed",
  "folders.delete": "authed",
  "folders.update": "authed",
  "documents.root": "authed",
  "documents.inFolder": "authed",
  "documents.delete": "authed",
  "documents.usage": "authed",
  "documents.search": "authed",
  "documents.update": "authed",
  "documents.trash": "authed",
  "documents.restore": "authed",
  "documents.deleteForever": "authed",
  "appointments.list": "authed",
  "appointments.request": "authed",
  "appointments.meetingTypes": "authed",
  "appointments.slots": "authed",
  "appointments.book": "authed",
  "appointments.cancel": "authed",
  "appointments.reschedule": "authed",
  "admin.me": "admin",
  "admin.stats": "admin",
  "admin.users": "admin",
  "admin.deleteUser": "admin",
  "admin.setUserQuota": "admin",
  "admin.documents": "admin",
  "admin.deleteDocument": "admin",
  "admin.trash": "admin",
  "admin.restoreDocument": "admin",
  "admin.client": "admin",
  "admin.clientFolders": "admin",
  "admin.clientDocuments": "admin",
  "admin.notificationSettings": "admin",
  "admin.updateNotificationSettings": "admin",
  "admin.siteContent": "admin",
  "admin.updateSiteContent": "admin",
  "admin.initSiteContent": "admin",
  "admin.siteContentEditor": "admin",
  "admin.resetSiteContent": "admin",
  "admin.updateTestimonials": "admin",
  "admin.siteMedia": "admin",
  "admin.removeSiteMedia": "admin",
  "admin.updateSiteOptions": "admin",
  "admin.confirmTestimonials": "admin",
  "admin.taxYear": "admin",
  "admin.setTaxYear": "admin",
  "admin.setupChecklist": "admin",
  "admin.setSetupChecklistHidden": "admin",
  "firm.taxYear": "authed",
  "siteMedia.public": "public",
  "admin.consultations": "admin",
  "admin.setConsultationHandled": "admin",
  "admin.resendConsultationEmail": "admin",
  "admin.appointments": "admin",
  "admin.appointmentCalendar": "admin",
  "admin.availability": "admin",
  "activity.list": "authed",
  "admin.activity": "admin",
  "admin.activitySettings": "admin",
  "admin.updateActivitySettings": "admin",
  "admin.inbox": "admin",
  "admin.inboxUnread": "admin",
  "admin.inboxRead": "admin",
  "requests.list": "authed",
  "requests.submit": "authed",
  "admin.requests": "admin",
  "admin.createRequest": "admin",
  "admin.updateRequest": "admin",
  "admin.requestFolders": "admin",
  "messages.list": "authed",
  "messages.send": "authed",
  "messages.unread": "authed",
  "messages.markRead": "authed",
  "messages.folder": "authed",
  "admin.conversations": "admin",
  "admin.messages": "admin",
  "admin.sendMessage": "admin",
  "admin.markMessagesRead": "admin",
  "admin.messagesUnread": "admin",
  "admin.messagesFolder": "admin",
  "admin.setAvailability": "admin",
  "admin.meetingTypes": "admin",
  "admin.createMeetingType": "admin",
  "admin.updateMeetingType": "admin",
  "admin.deleteMeetingType": "admin",
  "admin.createAppointment": "admin",
  "admin.updateAppointment": "admin",
  "admin.securitySettings": "admin",
  "admin.updateSecuritySettings": "admin",
  "admin.invitations": "admin",
  "admin.createInvitation": "admin",
  "admin.resendInvitation": "admin",
  "admin.revokeInvitation": "admin",
  "admin.registrationSetting": "admin",
  "admin.updateRegistrationSetting": "admin",
  "admin.staff": "admin",
  "admin.inviteStaff": "admin",
  "admin.updateStaff": "admin",
  "admin.staffInvitations": "admin",
  "admin.revokeStaffInvitation": "admin",
  "auth.registration": "public",
  "auth.checkInvitation": "public",
  "auth.acceptInvitation": "public",
};

/** Every REST path Express serves under /api, as "METHOD /path", with who may call it. */
export const REST_ACCESS: Record<string, Access> = {
  "GET /health": "public",
  "GET /ready": "public",
  "GET /openapi.json": "public",
  "POST /auth/register": "public",
  "POST /auth/login": "public",
  "POST /auth/logout": "public",
  "POST /auth/profile": "public",
  "POST /auth/forgot-password": "public",
  "POST /auth/reset-password": "public",
  "POST /auth/verify-email": "public",
  "GET /auth/google": "public",
  "GET /auth/google/callback": "public",
  "POST /consultation/request": "public",
  "GET /site-content": "public",
  "POST /admin/login": "public",
  "POST /auth/login/2fa": "public",
  "POST /auth/login/2fa/setup": "public",
  "POST /auth/login/2fa/enable": "public",
  "POST /auth/passkey/login/options": "public",
  "POST /auth/passkey/login": "public",
  "POST /auth/confirm-email-change": "public",
  "POST /auth/cancel-email-change": "public",
  "GET /auth/me": "authed",
  "PATCH /auth/me": "authed",
  "GET /auth/account": "authed",
  "POST /auth/change-password": "authed",
  "POST /auth/change-email": "authed",
  "POST /auth/delete-account": "authed",
  "POST /auth/confirm-identity": "authed",
  "GET /auth/sessions": "authed",
  "POST /auth/sessions/revoke-others": "authed",
  "DELETE /auth/sessions/:id": "authed",
  "POST /auth/2fa/setup": "authed",
  "POST /auth/2fa/enable": "authed",
  "POST /auth/2fa/disable": "authed",
  "POST /auth/2fa/backup-codes": "authed",
  "GET /auth/passkeys": "authed",
  "POST /auth/passkeys/options": "authed",
  "POST /auth/passkeys": "authed",
  "DELETE /auth/passkeys/:id": "authed",
  "POST /auth/resend-verification": "authed",
  "GET /accounts": "authed",
  "POST /accounts/switch": "authed",
  "GET /folders": "authed",
  "POST /folders": "authed",
  "DELETE /folders/:id": "authed",
  "PATCH /folders/:id": "authed",
  "GET /folders/root/download": "authed",
  "GET /folders/:id/download": "authed",
  "GET /documents/root": "authed",
  "GET /documents/usage": "authed",
  "GET /documents/folder/:folder_id": "authed",
  "POST /documents/upload": "authed",
  "GET /documents/:id/download": "authed",
  "DELETE /documents/:id": "authed",
  "GET /documents/search": "authed",
  "PATCH /documents/:id": "authed",
  "GET /documents/:id/preview": "authed",
  "GET /trash": "authed",
  "POST /trash/:id/restore": "authed",
  "DELETE /trash/:id": "authed",
  "GET /appointments": "authed",
  "POST /appointments": "authed",
  "GET /appointments/meeting-types": "authed",
  "GET /appointments/slots": "authed",
  "POST /appointments/book": "authed",
  "POST /appointments/:id/cancel": "authed",
  "POST /appointments/:id/reschedule": "authed",
  "GET /admin/stats": "admin",
  "GET /admin/users": "admin",
  "DELETE /admin/users/:id": "admin",
  "PATCH /admin/users/:id/quota": "admin",
  "GET /admin/documents": "admin",
  "DELETE /admin/documents/:id": "admin",
  "GET /admin/documents/:id/download": "admin",
  "GET /admin/documents/:id/preview": "admin",
  "GET /admin/trash": "admin",
  "POST /admin/trash/:id/restore": "admin",
  "GET /admin/site-content": "admin",
  "PUT /admin/site-content/:section/:key": "admin",
  "DELETE /admin/site-content/:section/:key": "admin",
  "POST /admin/init-site-content": "admin",
  "GET /admin/site-media": "admin",
  "POST /admin/site-media/:slot": "admin",
  "DELETE /admin/site-media/:slot": "admin",
  "PATCH /admin/site-options": "admin",
  "POST /admin/testimonials/confirm": "admin",
  "GET /admin/tax-year": "admin",
  "PUT /admin/tax-year": "admin",
  "GET /admin/setup-checklist": "admin",
  "PUT /admin/setup-checklist": "admin",
  "GET /tax-year": "authed",
  "PUT /admin/testimonials": "admin",
  "GET /admin/consultations": "admin",
  "GET /admin/users/:id": "admin",
  "GET /admin/users/:id/folders": "admin",
  "GET /admin/users/:id/documents": "admin",
  "POST /admin/users/:id/documents": "admin",
  "GET /admin/notification-settings": "admin",
  "PUT /admin/notification-settings": "admin",
  "PUT /admin/consultations/:id": "admin",
  "POST /admin/consultations/:id/resend-email": "admin",
  "GET /admin/appointments": "admin",
  "GET /admin/calendar": "admin",
  "GET /admin/availability": "admin",
  "GET /activity": "authed",
  "GET /admin/activity": "admin",
  "GET /admin/activity.csv": "admin",
  "GET /admin/activity-settings": "admin",
  "PUT /admin/activity-settings": "admin",
  "GET /admin/inbox": "admin",
  "GET /admin/inbox/unread": "admin",
  "POST /admin/inbox/read": "admin",
  "GET /requests": "authed",
  "POST /requests/:id/submit": "authed",
  "GET /admin/requests": "admin",
  "POST /admin/requests": "admin",
  "PATCH /admin/requests/:id": "admin",
  "GET /messages": "authed",
  "GET /messages/events": "authed",
  "POST /messages": "authed",
  "GET /messages/unread": "authed",
  "POST /messages/read": "authed",
  "POST /messages/folder": "authed",
  "GET /admin/messages": "admin",
  "GET /admin/messages/events": "admin",
  "GET /admin/messages/unread": "admin",
  "GET /admin/messages/:user_id": "admin",
  "POST /admin/messages/:user_id": "admin",
  "POST /admin/messages/:user_id/read": "admin",
  "POST /admin/messages/:user_id/folder": "admin",
  "PUT /admin/availability": "admin",
  "GET /admin/meeting-types": "admin",
  "POST /admin/meeting-types": "admin",
  "PATCH /admin/meeting-types/:id": "admin",
  "DELETE /admin/meeting-types/:id": "admin",
  "POST /admin/appointments": "admin",
  "PATCH /admin/appointments/:id": "admin",
  "GET /admin/security-settings": "admin",
  "PUT /admin/security-settings": "admin",
  "GET /admin/invitations": "admin",
  "POST /admin/invitations": "admin",
  "POST /admin/invitations/:id/resend": "admin",
  "DELETE /admin/invitations/:id": "admin",
  "GET /admin/registration": "admin",
  "PUT /admin/registration": "admin",
  "GET /admin/me": "admin",
  "GET /admin/staff": "admin",
  "POST /admin/staff": "admin",
  "PATCH /admin/staff/:id": "admin",
  "GET /admin/staff/invitations": "admin",
  "DELETE /admin/staff/invitations/:id": "admin",
  "GET /auth/registration": "public",
  "POST /auth/invitations/check": "public",
  "POST /auth/invitations/accept": "public",
};

type Layer = { rawPath?: string; handle: { stack?: Layer[] }; route?: { path: string; methods: Record<string, boolean> } };

/** The routes of the app's /api router, read from Express's own router stack. */
export function servedRestRoutes(app: Express): string[] {
  const routes: string[] = [];
  const top = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  for (const mount of top) {
    if (mount.rawPath !== "/api" || !mount.handle.stack) continue;
    for (const layer of mount.handle.stack) {
      if (!layer.route) continue;
      for (const method of Object.keys(layer.route.methods)) routes.push(`${method.toUpperCase()} ${layer.route.path}`);
    }
  }
  return routes;
}

export type TrpcResult = { status: number; data?: unknown; message?: string; code?: string; text: string };

/** One tRPC call over HTTP with superjson, as the web client makes it. */
export async function trpc(client: ApiClient, procedure: string, type: "query" | "mutation", input?: unknown): Promise<TrpcResult> {
  const payload = input === undefined ? undefined : { json: input };
  let res: ApiResponse;
  if (type === "query") {
    const query = payload === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(payload))}`;
    res = await client.get(`/trpc/${procedure}${query}`);
  } else {
    res = await client.request("POST", `/trpc/${procedure}`, {
      body: payload === undefined ? undefined : JSON.stringify(payload),
      headers: { "Content-Type": "application/json" },
    });
  }
  const body = res.body as { result?: { data?: { json?: unknown } }; error?: { json?: { message?: string; data?: { code?: string } } } };
  return {
    status: res.status,
    data: body?.result?.data?.json,
    message: body?.error?.json?.message,
    code: body?.error?.json?.data?.code,
    text: res.text,
  };
}

/** A folder, a stored document in it, a trashed document from it, an appointment and a document request of `userId`, written directly. */
export async function seedObjects(db: Kysely<Database>, storage: ObjectStorage, userId: string) {
  const storageKey = randomUUID();
  await storage.put(storageKey, Readable.from([Buffer.from("w-2")]));
  const folder = await db
    .insertInto("folders")
    .values({ account_id: userId, name: `Taxes ${randomUUID().slice(0, 6)}`, color: "#3B82F6" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const document = await db
    .insertInto("documents")
    .values({
      account_id: userId,
      folder_id: folder.id,
      original_filename: "w2.pdf",
      storage_key: storageKey,
      content_type: "application/pdf",
      file_size: 3,
      sha256: createHash("sha256").update("w-2").digest("hex"),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const trashedKey = randomUUID();
  await storage.put(trashedKey, Readable.from([Buffer.from("1099")]));
  const trashedDocument = await db
    .insertInto("documents")
    .values({
      account_id: userId,
      original_filename: "1099.pdf",
      storage_key: trashedKey,
      content_type: "application/pdf",
      file_size: 4,
      sha256: createHash("sha256").update("1099").digest("hex"),
      deleted_at: new Date(),
      trashed_from_folder_id: folder.id,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const appointment = await db
    .insertInto("appointments")
    .values({ account_id: userId, title: "Review", description: "", appointment_date: new Date(), status: "requested" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const request = await db
    .insertInto("document_requests")
    .values({ account_id: userId, title: "W-2 forms", folder_id: folder.id })
    .returning("id")
    .executeTakeFirstOrThrow();
  return {
    folderId: folder.id,
    documentId: document.id,
    appointmentId: appointment.id,
    trashedDocumentId: trashedDocument.id,
    requestId: request.id,
  };
}

/**
 * Issue 33: the right each admin procedure and path needs of a staff member (docs/security.md,
 * "Staff roles and rights"), or "any" when every person of the firm may call it. Owners and
 * admins pass them all.
 */
export type RightRule =
  "any" | "manage_clients" | "documents" | "requests" | "messages" | "appointments" | "site" | "activity" | "settings" | "staff";

const rightsByName: Record<Exclude<RightRule, "any">, string[]> = {
  manage_clients: [
    "admin.deleteUser",
    "admin.setUserQuota",
    "admin.consultations",
    "admin.setConsultationHandled",
    "admin.resendConsultationEmail",
    "admin.invitations",
    "admin.createInvitation",
    "admin.resendInvitation",
    "admin.revokeInvitation",
    "DELETE /admin/users/:id",
    "PATCH /admin/users/:id/quota",
    "GET /admin/consultations",
    "PUT /admin/consultations/:id",
    "POST /admin/consultations/:id/resend-email",
    "GET /admin/invitations",
    "POST /admin/invitations",
    "POST /admin/invitations/:id/resend",
    "DELETE /admin/invitations/:id",
  ],
  documents: [
    "admin.documents",
    "admin.deleteDocument",
    "admin.trash",
    "admin.restoreDocument",
    "admin.clientFolders",
    "admin.clientDocuments",
    "GET /admin/documents",
    "DELETE /admin/documents/:id",
    "GET /admin/documents/:id/download",
    "GET /admin/documents/:id/preview",
    "GET /admin/trash",
    "POST /admin/trash/:id/restore",
    "GET /admin/users/:id/folders",
    "GET /admin/users/:id/documents",
    "POST /admin/users/:id/documents",
  ],
  requests: [
    "admin.requests",
    "admin.createRequest",
    "admin.updateRequest",
    "admin.requestFolders",
    "GET /admin/requests",
    "POST /admin/requests",
    "PATCH /admin/requests/:id",
  ],
  messages: [
    "admin.conversations",
    "admin.messages",
    "admin.sendMessage",
    "admin.markMessagesRead",
    "admin.messagesUnread",
    "admin.messagesFolder",
    "GET /admin/messages",
    "GET /admin/messages/events",
    "GET /admin/messages/unread",
    "GET /admin/messages/:user_id",
    "POST /admin/messages/:user_id",
    "POST /admin/messages/:user_id/read",
    "POST /admin/messages/:user_id/folder",
  ],
  appointments: [
    "admin.appointments",
    "admin.appointmentCalendar",
    "admin.availability",
    "admin.setAvailability",
    "admin.meetingTypes",
    "admin.createMeetingType",
    "admin.updateMeetingType",
    "admin.deleteMeetingType",
    "admin.createAppointment",
    "admin.updateAppointment",
    "GET /admin/appointments",
    "GET /admin/calendar",
    "GET /admin/availability",
    "PUT /admin/availability",
    "GET /admin/meeting-types",
    "POST /admin/meeting-types",
    "PATCH /admin/meeting-types/:id",
    "DELETE /admin/meeting-types/:id",
    "POST /admin/appointments",
    "PATCH /admin/appointments/:id",
  ],
  site: [
    "admin.siteContent",
    "admin.updateSiteContent",
    "admin.initSiteContent",
    "admin.siteContentEditor",
    "admin.resetSiteContent",
    "admin.updateTestimonials",
    "GET /admin/site-content",
    "PUT /admin/site-content/:section/:key",
    "DELETE /admin/site-content/:section/:key",
    "POST /admin/init-site-content",
    "PUT /admin/testimonials",
    "admin.siteMedia",
    "admin.removeSiteMedia",
    "admin.updateSiteOptions",
    "admin.confirmTestimonials",
    "admin.taxYear",
    "admin.setTaxYear",
    "GET /admin/site-media",
    "POST /admin/site-media/:slot",
    "DELETE /admin/site-media/:slot",
    "PATCH /admin/site-options",
    "POST /admin/testimonials/confirm",
    "GET /admin/tax-year",
    "PUT /admin/tax-year",
  ],
  activity: ["admin.activity", "GET /admin/activity", "GET /admin/activity.csv"],
  settings: [
    "admin.activitySettings",
    "admin.updateActivitySettings",
    "admin.notificationSettings",
    "admin.updateNotificationSettings",
    "admin.securitySettings",
    "admin.updateSecuritySettings",
    "admin.registrationSetting",
    "admin.updateRegistrationSetting",
    "GET /admin/activity-settings",
    "PUT /admin/activity-settings",
    "GET /admin/notification-settings",
    "PUT /admin/notification-settings",
    "GET /admin/security-settings",
    "PUT /admin/security-settings",
    "GET /admin/registration",
    "PUT /admin/registration",
    "admin.setSetupChecklistHidden",
    "PUT /admin/setup-checklist",
  ],
  staff: [
    "admin.staff",
    "admin.inviteStaff",
    "admin.updateStaff",
    "admin.staffInvitations",
    "admin.revokeStaffInvitation",
    "GET /admin/staff",
    "POST /admin/staff",
    "PATCH /admin/staff/:id",
    "GET /admin/staff/invitations",
    "DELETE /admin/staff/invitations/:id",
  ],
};

/** The right of an admin procedure or path (a key of PROCEDURE_ACCESS or REST_ACCESS whose access is admin). */
export function rightOf(target: string): RightRule {
  for (const [right, targets] of Object.entries(rightsByName)) if (targets.includes(target)) return right as RightRule;
  return "any";
}

/** Every person of the firm may call these: who they are, the counts, the clients list and a client's page, and the Inbox (its items narrowed to their rights). */
export const ANY_STAFF = new Set([
  "admin.me",
  "admin.stats",
  "admin.users",
  "admin.client",
  "admin.inbox",
  "admin.inboxUnread",
  "admin.inboxRead",
  "GET /admin/me",
  "GET /admin/stats",
  "GET /admin/users",
  "GET /admin/users/:id",
  "GET /admin/inbox",
  "GET /admin/inbox/unread",
  "POST /admin/inbox/read",
  "admin.setupChecklist",
  "GET /admin/setup-checklist",
]);
