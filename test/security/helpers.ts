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
  "auth.greeting": "authed",
  "account.overview": "authed",
  "account.updateProfile": "authed",
  "account.updateLanguage": "authed",
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
  "accountContacts.list": "authed",
  "accountContacts.invite": "authed",
  "accountContacts.remove": "authed",
  "accountContacts.updateRole": "authed",
  "accountContacts.join": "authed",
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
  "admin.documents.list": "admin",
  "admin.documents.delete": "admin",
  "admin.documents.trash": "admin",
  "admin.documents.restore": "admin",
  "admin.clients.get": "admin",
  "admin.clients.folders": "admin",
  "admin.clients.createFolder": "admin",
  "admin.clients.documents": "admin",
  "admin.clients.notificationSettings": "admin",
  "admin.clients.updateNotificationSettings": "admin",
  "admin.siteContent.get": "admin",
  "admin.siteContent.update": "admin",
  "admin.siteContent.init": "admin",
  "admin.siteContent.editor": "admin",
  "admin.siteContent.reset": "admin",
  "admin.siteContent.updateTestimonials": "admin",
  "admin.siteMedia.get": "admin",
  "admin.siteMedia.remove": "admin",
  "admin.siteMedia.updateOptions": "admin",
  "admin.siteMedia.confirmTestimonials": "admin",
  "admin.firm.taxYear": "admin",
  "admin.firm.setTaxYear": "admin",
  "admin.firm.setupChecklist": "admin",
  "admin.firm.setSetupChecklistHidden": "admin",
  "firm.taxYear": "authed",
  "siteMedia.public": "public",
  "admin.consultations.list": "admin",
  "admin.consultations.setHandled": "admin",
  "admin.consultations.resendEmail": "admin",
  "admin.consultations.invite": "admin",
  "admin.appointments.list": "admin",
  "admin.appointments.calendar": "admin",
  "admin.availability.get": "admin",
  "activity.list": "authed",
  "admin.activity.list": "admin",
  "admin.activity.settings": "admin",
  "admin.activity.updateSettings": "admin",
  "admin.inbox.list": "admin",
  "admin.inbox.unread": "admin",
  "admin.inbox.read": "admin",
  "requests.list": "authed",
  "requests.submit": "authed",
  "requests.removeItemDocument": "authed",
  "admin.requests.list": "admin",
  "admin.requests.create": "admin",
  "admin.requests.update": "admin",
  "admin.requests.updateItem": "admin",
  "admin.requests.templates": "admin",
  "admin.requests.createTemplate": "admin",
  "admin.requests.updateTemplate": "admin",
  "admin.requests.deleteTemplate": "admin",
  "admin.requests.folders": "admin",
  "organizers.list": "authed",
  "organizers.get": "authed",
  "organizers.saveAnswers": "authed",
  "organizers.submit": "authed",
  "organizers.unsubmit": "authed",
  "admin.organizers.templates": "admin",
  "admin.organizers.readyTemplates": "admin",
  "admin.organizers.template": "admin",
  "admin.organizers.createTemplate": "admin",
  "admin.organizers.updateTemplate": "admin",
  "admin.organizers.deleteTemplate": "admin",
  "admin.organizers.list": "admin",
  "admin.organizers.get": "admin",
  "admin.organizers.create": "admin",
  "admin.organizers.send": "admin",
  "admin.organizers.reviewAnswer": "admin",
  "admin.organizers.reopen": "admin",
  "messages.list": "authed",
  "messages.send": "authed",
  "messages.unread": "authed",
  "messages.markRead": "authed",
  "messages.conversations": "authed",
  "messages.folder": "authed",
  "admin.messages.conversations": "admin",
  "admin.messages.list": "admin",
  "admin.messages.send": "admin",
  "admin.messages.markRead": "admin",
  "admin.messages.unread": "admin",
  "admin.messages.folder": "admin",
  "admin.availability.set": "admin",
  "admin.availability.meetingTypes": "admin",
  "admin.availability.createMeetingType": "admin",
  "admin.availability.updateMeetingType": "admin",
  "admin.availability.deleteMeetingType": "admin",
  "admin.appointments.create": "admin",
  "admin.appointments.update": "admin",
  "admin.securitySettings.get": "admin",
  "admin.securitySettings.update": "admin",
  "admin.invitations.list": "admin",
  "admin.invitations.create": "admin",
  "admin.invitations.resend": "admin",
  "admin.invitations.revoke": "admin",
  "admin.invitations.registration": "admin",
  "admin.invitations.updateRegistration": "admin",
  "admin.staff.list": "admin",
  "admin.staff.invite": "admin",
  "admin.staff.update": "admin",
  "admin.staff.invitations": "admin",
  "admin.staff.revokeInvitation": "admin",
  "admin.staff.resendInvitation": "admin",
  "admin.accounts.list": "admin",
  "admin.accounts.get": "admin",
  "admin.accounts.create": "admin",
  "admin.accounts.update": "admin",
  "admin.accounts.addContact": "admin",
  "admin.accounts.updateContact": "admin",
  "admin.accounts.removeContact": "admin",
  "admin.accounts.import": "admin",
  "admin.staff.accountAssignees": "admin",
  "admin.staff.accountReach": "admin",
  "admin.staff.setAccountAssignees": "admin",
  "admin.staff.accessReport": "admin",
  "admin.accountNotes.list": "admin",
  "admin.accountNotes.create": "admin",
  "admin.accountNotes.update": "admin",
  "admin.accountNotes.delete": "admin",
  "admin.security.endAllSessions": "admin",
  "auth.registration": "public",
  "auth.checkInvitation": "public",
  "auth.acceptInvitation": "public",
  "signatures.list": "authed",
  "signatures.get": "authed",
  "signatures.consent": "authed",
  "signatures.decline": "authed",
  "signatures.verifyStart": "authed",
  "signatures.verify": "authed",
  "signatures.sign": "authed",
  "admin.signatures.list": "admin",
  "admin.signatures.get": "admin",
  "admin.signatures.create": "admin",
  "admin.signatures.void": "admin",
  "admin.signatures.remind": "admin",
  "admin.signatures.recordInPerson": "admin",
  "admin.retention.get": "admin",
  "admin.retention.update": "admin",
  "admin.retention.due": "admin",
  "admin.retention.legalHold": "admin",
  "admin.retention.placeLegalHold": "admin",
  "admin.retention.clearLegalHold": "admin",
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
  "GET /account/contacts": "authed",
  "POST /account/contacts": "authed",
  "DELETE /account/contacts/:userId": "authed",
  "PATCH /account/contacts/:userId": "authed",
  "POST /accounts/join": "authed",
  "GET /folders": "authed",
  "POST /folders": "authed",
  "DELETE /folders/:id": "authed",
  "PATCH /folders/:id": "authed",
  "GET /folders/root/download": "authed",
  "GET /account/export": "authed",
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
  "POST /admin/users/:id/folders": "admin",
  "GET /admin/users/:id/documents": "admin",
  "POST /admin/users/:id/documents": "admin",
  "GET /admin/notification-settings": "admin",
  "PUT /admin/notification-settings": "admin",
  "PUT /admin/consultations/:id": "admin",
  "POST /admin/consultations/:id/resend-email": "admin",
  "POST /admin/consultations/:id/invite": "admin",
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
  "DELETE /requests/:id/items/:itemId/documents/:documentId": "authed",
  "GET /admin/requests": "admin",
  "POST /admin/requests": "admin",
  "PATCH /admin/requests/:id": "admin",
  "PATCH /admin/requests/:id/items/:itemId": "admin",
  "GET /admin/request-templates": "admin",
  "POST /admin/request-templates": "admin",
  "PATCH /admin/request-templates/:id": "admin",
  "DELETE /admin/request-templates/:id": "admin",
  "GET /organizers": "authed",
  "GET /organizers/:id": "authed",
  "PUT /organizers/:id/answers": "authed",
  "POST /organizers/:id/submit": "authed",
  "POST /organizers/:id/unsubmit": "authed",
  "GET /admin/organizer-templates": "admin",
  "GET /admin/organizer-templates/ready": "admin",
  "POST /admin/organizer-templates": "admin",
  "GET /admin/organizer-templates/:id": "admin",
  "PUT /admin/organizer-templates/:id": "admin",
  "DELETE /admin/organizer-templates/:id": "admin",
  "GET /admin/organizer-templates/:id/answers.csv": "admin",
  "GET /admin/organizers": "admin",
  "POST /admin/organizers": "admin",
  "GET /admin/organizers/:id": "admin",
  "POST /admin/organizers/:id/send": "admin",
  "PUT /admin/organizers/:id/answers/:questionId/reviewed": "admin",
  "POST /admin/organizers/:id/reopen": "admin",
  "GET /admin/organizers/:id/pdf": "admin",
  "GET /messages": "authed",
  "GET /messages/events": "authed",
  "POST /messages": "authed",
  "GET /messages/unread": "authed",
  "POST /messages/read": "authed",
  "GET /messages/conversations": "authed",
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
  "POST /admin/staff/invitations/:id/resend": "admin",
  "GET /admin/accounts": "admin",
  "POST /admin/accounts": "admin",
  "POST /admin/accounts/import": "admin",
  "GET /admin/accounts/:id": "admin",
  "PATCH /admin/accounts/:id": "admin",
  "POST /admin/accounts/:id/contacts": "admin",
  "PATCH /admin/accounts/:id/contacts/:userId": "admin",
  "DELETE /admin/accounts/:id/contacts/:userId": "admin",
  "GET /admin/accounts/:id/assignees": "admin",
  "PUT /admin/accounts/:id/assignees": "admin",
  "GET /admin/accounts/:id/access-report": "admin",
  "GET /admin/accounts/:id/notes": "admin",
  "POST /admin/accounts/:id/notes": "admin",
  "PATCH /admin/accounts/:id/notes/:noteId": "admin",
  "DELETE /admin/accounts/:id/notes/:noteId": "admin",
  "POST /admin/security/end-all-sessions": "admin",
  "GET /admin/security/access-log.csv": "admin",
  "GET /admin/accounts/:id/export": "admin",
  "GET /auth/registration": "public",
  "POST /auth/invitations/check": "public",
  "POST /auth/invitations/accept": "public",
  "GET /signature-requests": "authed",
  "GET /signature-requests/:id": "authed",
  "GET /signature-requests/:id/document": "authed",
  "POST /signature-requests/:id/consent": "authed",
  "POST /signature-requests/:id/decline": "authed",
  "POST /signature-requests/:id/verify/start": "authed",
  "POST /signature-requests/:id/verify": "authed",
  "POST /signature-requests/:id/sign": "authed",
  "POST /signatures/verify": "public",
  "GET /admin/signature-requests": "admin",
  "POST /admin/signature-requests": "admin",
  "GET /admin/signature-requests/:id": "admin",
  "POST /admin/signature-requests/:id/void": "admin",
  "POST /admin/signature-requests/:id/remind": "admin",
  "POST /admin/signature-requests/:id/signers/:index/in-person": "admin",
  "GET /admin/retention": "admin",
  "PUT /admin/retention": "admin",
  "GET /admin/retention/due": "admin",
  "GET /admin/accounts/:id/legal-hold": "admin",
  "POST /admin/accounts/:id/legal-hold": "admin",
  "DELETE /admin/accounts/:id/legal-hold": "admin",
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

/**
 * A folder, a stored document in it, a trashed document from it, an appointment and a document request
 * of `userId` with one checklist item that the document is attached to, written directly.
 */
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
  // Its checklist's one item, with the folder's document attached to it (issue 34).
  const requestItem = await db
    .insertInto("document_request_items")
    .values({ request_id: request.id, position: 0, title: "W-2 from each employer" })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db.updateTable("documents").set({ request_id: request.id, request_item_id: requestItem.id }).where("id", "=", document.id).execute();
  // An organizer sent to the account (issue 36): one yes/no question and one file question.
  const organizerTemplate = {
    sections: [
      {
        title: "Life changes",
        questions: [
          { id: "moved", type: "yes_no", label: "Did you move?", required: false, sensitive: false },
          { id: "w2_files", type: "file", label: "W-2 forms", required: false, sensitive: false },
        ],
      },
    ],
  };
  const organizer = await db
    .insertInto("organizers")
    .values({ account_id: userId, template_id: null, template: JSON.stringify(organizerTemplate), title: "2026 organizer", status: "sent" })
    .returning("id")
    .executeTakeFirstOrThrow();
  // A signature request of the document (issue 35), every person who may sign in to the account a
  // signer of it (a client reaches only the requests they sign), one signature field each.
  const signatureRequest = await db
    .insertInto("signature_requests")
    .values({
      account_id: userId,
      document_id: document.id,
      title: "2026 engagement letter",
      kind: "other",
      signing_order: "parallel",
      original_sha256: createHash("sha256").update("w-2").digest("hex"),
      created_by: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const people = await db
    .selectFrom("account_contacts")
    .innerJoin("users", "users.id", "account_contacts.user_id")
    .select(["users.id", "users.name", "users.email"])
    .where("account_contacts.account_id", "=", userId)
    .where("account_contacts.portal_access", "=", true)
    .orderBy("account_contacts.created_at")
    .orderBy("users.id")
    .execute();
  await db
    .insertInto("signature_signers")
    .values(people.map((p, position) => ({ request_id: signatureRequest.id, position, user_id: p.id, name: p.name, email: p.email })))
    .execute();
  await db
    .insertInto("signature_fields")
    .values(
      people.map((_, position) => ({
        request_id: signatureRequest.id,
        signer_position: position,
        ordinal: position,
        type: "signature" as const,
        page: 1,
        x: 0.1,
        y: 0.8,
        width: 0.3,
        height: 0.05,
      })),
    )
    .execute();
  return {
    organizerId: organizer.id,
    signatureRequestId: signatureRequest.id,
    requestItemId: requestItem.id,
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
  "any" | "owner" | "manage_clients" | "documents" | "requests" | "messages" | "appointments" | "site" | "activity" | "settings" | "staff";

const rightsByName: Record<Exclude<RightRule, "any">, string[]> = {
  // Issue 37: above every right, the firm's owner alone (admins too are refused).
  owner: ["admin.security.endAllSessions", "POST /admin/security/end-all-sessions"],
  manage_clients: [
    "admin.deleteUser",
    "admin.setUserQuota",
    "admin.consultations.list",
    "admin.consultations.setHandled",
    "admin.consultations.resendEmail",
    "admin.consultations.invite",
    "admin.invitations.list",
    "admin.invitations.create",
    "admin.invitations.resend",
    "admin.invitations.revoke",
    "DELETE /admin/users/:id",
    "PATCH /admin/users/:id/quota",
    "GET /admin/consultations",
    "PUT /admin/consultations/:id",
    "POST /admin/consultations/:id/resend-email",
    "POST /admin/consultations/:id/invite",
    "GET /admin/invitations",
    "POST /admin/invitations",
    "POST /admin/invitations/:id/resend",
    "DELETE /admin/invitations/:id",
    "admin.accounts.create",
    "admin.accounts.update",
    "admin.accounts.addContact",
    "admin.accounts.updateContact",
    "admin.accounts.removeContact",
    "admin.accounts.import",
    "POST /admin/accounts",
    "POST /admin/accounts/import",
    "PATCH /admin/accounts/:id",
    "POST /admin/accounts/:id/contacts",
    "PATCH /admin/accounts/:id/contacts/:userId",
    "DELETE /admin/accounts/:id/contacts/:userId",
    "admin.staff.setAccountAssignees",
    "PUT /admin/accounts/:id/assignees",
  ],
  documents: [
    "admin.documents.list",
    "admin.documents.delete",
    "admin.documents.trash",
    "admin.documents.restore",
    "admin.clients.folders",
    "admin.clients.createFolder",
    "admin.clients.documents",
    "GET /admin/documents",
    "DELETE /admin/documents/:id",
    "GET /admin/documents/:id/download",
    "GET /admin/documents/:id/preview",
    "GET /admin/trash",
    "POST /admin/trash/:id/restore",
    "GET /admin/users/:id/folders",
    "POST /admin/users/:id/folders",
    "GET /admin/users/:id/documents",
    "POST /admin/users/:id/documents",
  ],
  requests: [
    "admin.requests.list",
    "admin.requests.create",
    "admin.requests.update",
    "admin.requests.folders",
    "GET /admin/requests",
    "POST /admin/requests",
    "PATCH /admin/requests/:id",
    "admin.requests.updateItem",
    "admin.requests.templates",
    "admin.requests.createTemplate",
    "admin.requests.updateTemplate",
    "admin.requests.deleteTemplate",
    "PATCH /admin/requests/:id/items/:itemId",
    "GET /admin/request-templates",
    "POST /admin/request-templates",
    "PATCH /admin/request-templates/:id",
    "DELETE /admin/request-templates/:id",
    // Organizers ask the client for what the return needs, as requests do (docs/decisions.md, "Organizers").
    "admin.organizers.templates",
    "admin.organizers.readyTemplates",
    "admin.organizers.template",
    "admin.organizers.createTemplate",
    "admin.organizers.updateTemplate",
    "admin.organizers.deleteTemplate",
    "admin.organizers.list",
    "admin.organizers.get",
    "admin.organizers.create",
    "admin.organizers.send",
    "admin.organizers.reviewAnswer",
    "admin.organizers.reopen",
    "GET /admin/organizer-templates",
    "GET /admin/organizer-templates/ready",
    "POST /admin/organizer-templates",
    "GET /admin/organizer-templates/:id",
    "PUT /admin/organizer-templates/:id",
    "DELETE /admin/organizer-templates/:id",
    "GET /admin/organizer-templates/:id/answers.csv",
    "GET /admin/organizers",
    "POST /admin/organizers",
    "GET /admin/organizers/:id",
    "POST /admin/organizers/:id/send",
    "PUT /admin/organizers/:id/answers/:questionId/reviewed",
    "POST /admin/organizers/:id/reopen",
    "GET /admin/organizers/:id/pdf",
    "admin.signatures.list",
    "admin.signatures.get",
    "admin.signatures.create",
    "admin.signatures.void",
    "admin.signatures.remind",
    "admin.signatures.recordInPerson",
    "GET /admin/signature-requests",
    "POST /admin/signature-requests",
    "GET /admin/signature-requests/:id",
    "POST /admin/signature-requests/:id/void",
    "POST /admin/signature-requests/:id/remind",
    "POST /admin/signature-requests/:id/signers/:index/in-person",
  ],
  messages: [
    "admin.messages.conversations",
    "admin.messages.list",
    "admin.messages.send",
    "admin.messages.markRead",
    "admin.messages.unread",
    "admin.messages.folder",
    "GET /admin/messages",
    "GET /admin/messages/events",
    "GET /admin/messages/unread",
    "GET /admin/messages/:user_id",
    "POST /admin/messages/:user_id",
    "POST /admin/messages/:user_id/read",
    "POST /admin/messages/:user_id/folder",
  ],
  appointments: [
    "admin.appointments.list",
    "admin.appointments.calendar",
    "admin.availability.get",
    "admin.availability.set",
    "admin.availability.meetingTypes",
    "admin.availability.createMeetingType",
    "admin.availability.updateMeetingType",
    "admin.availability.deleteMeetingType",
    "admin.appointments.create",
    "admin.appointments.update",
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
    "admin.siteContent.get",
    "admin.siteContent.update",
    "admin.siteContent.init",
    "admin.siteContent.editor",
    "admin.siteContent.reset",
    "admin.siteContent.updateTestimonials",
    "GET /admin/site-content",
    "PUT /admin/site-content/:section/:key",
    "DELETE /admin/site-content/:section/:key",
    "POST /admin/init-site-content",
    "PUT /admin/testimonials",
    "admin.siteMedia.get",
    "admin.siteMedia.remove",
    "admin.siteMedia.updateOptions",
    "admin.siteMedia.confirmTestimonials",
    "admin.firm.taxYear",
    "admin.firm.setTaxYear",
    "GET /admin/site-media",
    "POST /admin/site-media/:slot",
    "DELETE /admin/site-media/:slot",
    "PATCH /admin/site-options",
    "POST /admin/testimonials/confirm",
    "GET /admin/tax-year",
    "PUT /admin/tax-year",
  ],
  activity: [
    "admin.activity.list",
    "GET /admin/activity",
    "GET /admin/activity.csv",
    "admin.staff.accessReport",
    "GET /admin/accounts/:id/access-report",
    "GET /admin/security/access-log.csv",
  ],
  settings: [
    "admin.activity.settings",
    "admin.activity.updateSettings",
    "admin.clients.notificationSettings",
    "admin.clients.updateNotificationSettings",
    "admin.securitySettings.get",
    "admin.securitySettings.update",
    "admin.invitations.registration",
    "admin.invitations.updateRegistration",
    "GET /admin/activity-settings",
    "PUT /admin/activity-settings",
    "GET /admin/notification-settings",
    "PUT /admin/notification-settings",
    "GET /admin/security-settings",
    "PUT /admin/security-settings",
    "GET /admin/registration",
    "PUT /admin/registration",
    "admin.firm.setSetupChecklistHidden",
    "PUT /admin/setup-checklist",
    // Issue 37: retention rules, what is due for disposal, and legal holds.
    "admin.retention.get",
    "admin.retention.update",
    "admin.retention.due",
    "admin.retention.legalHold",
    "admin.retention.placeLegalHold",
    "admin.retention.clearLegalHold",
    "GET /admin/retention",
    "PUT /admin/retention",
    "GET /admin/retention/due",
    "GET /admin/accounts/:id/legal-hold",
    "POST /admin/accounts/:id/legal-hold",
    "DELETE /admin/accounts/:id/legal-hold",
  ],
  staff: [
    "admin.staff.list",
    "admin.staff.invite",
    "admin.staff.update",
    "admin.staff.invitations",
    "admin.staff.revokeInvitation",
    "admin.staff.resendInvitation",
    "POST /admin/staff/invitations/:id/resend",
    "GET /admin/staff",
    "POST /admin/staff",
    "PATCH /admin/staff/:id",
    "GET /admin/staff/invitations",
    "DELETE /admin/staff/invitations/:id",
  ],
};

/** The 403's detail for a person of the firm who lacks what `need` names. */
export function refusalOf(need: Exclude<RightRule, "any">): string {
  return need === "owner" ? "Only the firm's owner may do this" : `You need the ${need} right for this`;
}

/**
 * Issue 37: targets that need several rights at once, in the order the server checks them (a staff
 * member lacking some is refused naming the first one missing). The export holds every part of the
 * client record, so it needs each part's right (server/trpc/staff-rights.ts, EXPORT_RIGHTS).
 */
const allRightsOf: Record<string, Exclude<RightRule, "any" | "owner">[]> = {
  "GET /admin/accounts/:id/export": ["manage_clients", "documents", "messages", "requests", "appointments"],
};

/** The right of an admin procedure or path (a key of PROCEDURE_ACCESS or REST_ACCESS whose access is admin); the first of several. */
export function rightOf(target: string): RightRule {
  for (const [right, targets] of Object.entries(rightsByName)) if (targets.includes(target)) return right as RightRule;
  return allRightsOf[target]?.[0] ?? "any";
}

/**
 * What a staff member holding only `right` gets from `target`: reached, or refused naming the
 * right missing first.
 */
export function aloneWith(right: string, target: string): { reached: true } | { refusal: string } {
  const needs: RightRule[] = allRightsOf[target] ?? [rightOf(target)];
  const missing = needs.find((need): need is Exclude<RightRule, "any"> => need !== "any" && need !== right);
  return missing ? { refusal: refusalOf(missing) } : { reached: true };
}

/** Every person of the firm may call these: who they are, the counts, the clients list and a client's page, and the Inbox (its items narrowed to their rights). */
export const ANY_STAFF = new Set([
  "admin.me",
  "admin.stats",
  "admin.users",
  "admin.clients.get",
  "admin.inbox.list",
  "admin.inbox.unread",
  "admin.inbox.read",
  "GET /admin/me",
  "GET /admin/stats",
  "GET /admin/users",
  "GET /admin/users/:id",
  "GET /admin/inbox",
  "GET /admin/inbox/unread",
  "POST /admin/inbox/read",
  "admin.firm.setupChecklist",
  "GET /admin/setup-checklist",
  "admin.accounts.list",
  "admin.accounts.get",
  "GET /admin/accounts",
  "GET /admin/accounts/:id",
  "admin.staff.accountAssignees",
  "GET /admin/accounts/:id/assignees",
  // Why a client's page does not open: not assigned, or not found (issue 48); nothing of the account.
  "admin.staff.accountReach",
  // The firm's private notes: anyone who reaches the account; a note's author alone changes it.
  "admin.accountNotes.list",
  "admin.accountNotes.create",
  "admin.accountNotes.update",
  "admin.accountNotes.delete",
  "GET /admin/accounts/:id/notes",
  "POST /admin/accounts/:id/notes",
  "PATCH /admin/accounts/:id/notes/:noteId",
  "DELETE /admin/accounts/:id/notes/:noteId",
]);

/**
 * Issue 32: the client procedures and paths that act on the caller as a person (their sign-in,
 * profile, sessions, second factor, passkeys, the firm's tax year), not on the session's current
 * account. Every other client procedure and path acts on the current account, and the matrix calls
 * each as the account's contact, another account's contact, a removed contact and a member without
 * portal access.
 */
export const PERSON_SCOPED = new Set([
  // Joining by an invitation's link adds an account to the person's own list.
  "accountContacts.join",
  "POST /accounts/join",
  "auth.me",
  "auth.greeting",
  "auth.resendVerification",
  "account.overview",
  "account.updateProfile",
  "account.updateLanguage",
  "account.changePassword",
  "account.changeEmail",
  "account.deleteAccount",
  "account.proveIdentity",
  "account.sessions",
  "account.revokeSession",
  "account.revokeOtherSessions",
  "account.setupTwoFactor",
  "account.enableTwoFactor",
  "account.disableTwoFactor",
  "account.regenerateBackupCodes",
  "account.passkeys",
  "account.passkeyRegistrationOptions",
  "account.registerPasskey",
  "account.deletePasskey",
  "firm.taxYear",
  "GET /auth/me",
  "PATCH /auth/me",
  "GET /auth/account",
  "POST /auth/change-password",
  "POST /auth/change-email",
  "POST /auth/delete-account",
  "POST /auth/confirm-identity",
  "GET /auth/sessions",
  "POST /auth/sessions/revoke-others",
  "DELETE /auth/sessions/:id",
  "POST /auth/2fa/setup",
  "POST /auth/2fa/enable",
  "POST /auth/2fa/disable",
  "POST /auth/2fa/backup-codes",
  "GET /auth/passkeys",
  "POST /auth/passkeys/options",
  "POST /auth/passkeys",
  "DELETE /auth/passkeys/:id",
  "POST /auth/resend-verification",
  "GET /tax-year",
]);
