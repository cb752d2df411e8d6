// Every email is a job. The job names what the mail is about (ids only); its message is composed
// when it runs, from the data as it is then, so no message body, address or link token waits in
// the queue. A job records its message as sent (sent_mail, with what sending means for the data,
// in one transaction) and a job that finds that record sends nothing: a retry after a crash, or a
// job handed out twice, does not mail twice. A job out of retries goes to `email-gave-up`.
// Two queues share this handler (docs/decisions.md, Mail queues): `email-now` for mail a person is
// waiting for, polled often and never behind anything bulk, and `email` for the rest, taken in
// batches and sent several at a time over the mailer's pooled connections. Callers send to
// "email"; the kind of the mail picks the queue (URGENCY).
import type { AppDeps } from "../trpc/context.ts";
import type { Outgoing } from "../mail/outgoing.ts";
import {
  type AccountSecurityJob,
  emailChangedMail,
  type EmailChangedJob,
  type EmailChangeJob,
  emailChangeMail,
  emailChangeRequestedMail,
  type EmailChangeRequestedJob,
  type NewSignInJob,
  newSignInMail,
  securityEventMail,
} from "../domains/profile/mail.ts";
import { contactAddedMail, type ContactAddedJob } from "../domains/accounts/firm-mail.ts";
import {
  type AppointmentChangeJob,
  appointmentChangeMail,
  type AppointmentFirmNoticeJob,
  appointmentFirmNoticeMail,
  type AppointmentReminderJob,
  appointmentReminderMail,
} from "../domains/appointments/mail.ts";
import {
  type AccountLockedJob,
  type EmailVerificationJob,
  lockNoticeMail,
  type PasswordResetJob,
  resetMail,
  verificationMail,
} from "../domains/auth/mail.ts";
import {
  consultationConfirmationMail,
  type ConsultationConfirmationJob,
  consultationNotificationGaveUp,
  type ConsultationNotificationJob,
  consultationNotificationMail,
} from "../domains/consultation/mail.ts";
import { documentsSharedMail, type DocumentsSharedJob, uploadDigestMail, type UploadDigestJob } from "../domains/documents/mail.ts";
import { invitationMail, type InvitationJob } from "../domains/invitations/mail.ts";
import { accountInvitationMail, type AccountInvitationJob } from "../domains/account-contacts/mail.ts";
import { messageWaitingMail, type MessageWaitingJob } from "../domains/messages/mail.ts";
import {
  organizerReminderMail,
  type OrganizerReminderJob,
  organizerReopenedMail,
  type OrganizerReopenedJob,
  organizerSentMail,
  type OrganizerSentJob,
  organizerSubmittedMail,
  type OrganizerSubmittedJob,
} from "../domains/organizers/mail.ts";
import { staffInvitationMail, type StaffInvitationJob } from "../domains/staff/mail.ts";
import {
  requestCreatedMail,
  type RequestCreatedJob,
  requestReminderMail,
  type RequestReminderJob,
  requestReopenedMail,
  type RequestReopenedJob,
  requestSubmittedMail,
  type RequestSubmittedJob,
  requestItemReopenedMail,
  type RequestItemReopenedJob,
} from "../domains/requests/mail.ts";
import {
  signatureCodeMail,
  type SignatureCodeJob,
  signatureCompletedMail,
  type SignatureCompletedJob,
  signatureDeclinedMail,
  type SignatureDeclinedJob,
  signatureTurnMail,
  type SignatureTurnJob,
  signatureVoidedMail,
  type SignatureVoidedJob,
} from "../domains/signatures/mail.ts";
import type { Job, JobKind } from "./queue.ts";

/**
 * Every kind of mail and its job's payload. Each payload type sits beside its composer (a domain's
 * mail.ts); this file only names the kinds.
 */
type EmailPayloads = {
  "password-reset": PasswordResetJob;
  "email-verification": EmailVerificationJob;
  "account-locked": AccountLockedJob;
  "account-security": AccountSecurityJob;
  "new-sign-in": NewSignInJob;
  "email-change": EmailChangeJob;
  "email-changed": EmailChangedJob;
  "email-change-requested": EmailChangeRequestedJob;
  invitation: InvitationJob;
  "account-invitation": AccountInvitationJob;
  "staff-invitation": StaffInvitationJob;
  "consultation-notification": ConsultationNotificationJob;
  "consultation-confirmation": ConsultationConfirmationJob;
  "appointment-change": AppointmentChangeJob;
  "documents-shared": DocumentsSharedJob;
  "upload-digest": UploadDigestJob;
  "appointment-firm-notice": AppointmentFirmNoticeJob;
  "appointment-reminder": AppointmentReminderJob;
  "document-request-created": RequestCreatedJob;
  "document-request-reminder": RequestReminderJob;
  "document-request-submitted": RequestSubmittedJob;
  "document-request-reopened": RequestReopenedJob;
  "document-request-item-reopened": RequestItemReopenedJob;
  "message-waiting": MessageWaitingJob;
  "account-contact-added": ContactAddedJob;
  "organizer-sent": OrganizerSentJob;
  "organizer-reopened": OrganizerReopenedJob;
  "organizer-reminder": OrganizerReminderJob;
  "organizer-submitted": OrganizerSubmittedJob;
  "signature-turn": SignatureTurnJob;
  "signature-code": SignatureCodeJob;
  "signature-declined": SignatureDeclinedJob;
  "signature-completed": SignatureCompletedJob;
  "signature-voided": SignatureVoidedJob;
};

/** A mail job as the queue holds it: its kind, then its payload. */
type EmailJob = { [K in keyof EmailPayloads]: { kind: K } & EmailPayloads[K] }[keyof EmailPayloads];

// The mail queues' payloads join the queue's registry here (jobs/queue.ts, JobPayloads), so the
// queue names no domain and this file is the only one that gathers them.
declare module "./queue.ts" {
  interface JobPayloads {
    /** Mail that may wait its turn: bulk and batched mail (docs/decisions.md, Mail queues). */
    email: EmailJob;
    /** Mail a person is waiting for: a queue of its own that nothing bulk can delay. */
    "email-now": EmailJob;
    "email-gave-up": EmailJob;
  }
}

type Composer<K extends EmailJob["kind"]> = (deps: AppDeps, job: Extract<EmailJob, { kind: K }>) => Promise<Outgoing | null>;

/** How each kind is written; null when there is nothing to send any more (the user or request is gone, or the address verified). */
const COMPOSERS: { [K in EmailJob["kind"]]: Composer<K> } = {
  "password-reset": resetMail,
  "email-verification": verificationMail,
  "account-locked": lockNoticeMail,
  "account-security": securityEventMail,
  "new-sign-in": newSignInMail,
  "email-change": emailChangeMail,
  "email-changed": emailChangedMail,
  "email-change-requested": emailChangeRequestedMail,
  invitation: invitationMail,
  "account-invitation": accountInvitationMail,
  "staff-invitation": staffInvitationMail,
  "consultation-notification": consultationNotificationMail,
  "consultation-confirmation": consultationConfirmationMail,
  "appointment-change": appointmentChangeMail,
  "appointment-firm-notice": appointmentFirmNoticeMail,
  "documents-shared": documentsSharedMail,
  "upload-digest": uploadDigestMail,
  "appointment-reminder": appointmentReminderMail,
  "document-request-created": requestCreatedMail,
  "document-request-reminder": requestReminderMail,
  "document-request-submitted": requestSubmittedMail,
  "document-request-reopened": requestReopenedMail,
  "document-request-item-reopened": requestItemReopenedMail,
  "message-waiting": messageWaitingMail,
  "account-contact-added": contactAddedMail,
  "organizer-sent": organizerSentMail,
  "organizer-reopened": organizerReopenedMail,
  "organizer-reminder": organizerReminderMail,
  "organizer-submitted": organizerSubmittedMail,
  "signature-turn": signatureTurnMail,
  "signature-code": signatureCodeMail,
  "signature-declined": signatureDeclinedMail,
  "signature-completed": signatureCompletedMail,
  "signature-voided": signatureVoidedMail,
};

/**
 * Which queue each kind goes through: "now" when a person is at the screen waiting for it (a link or
 * code to go on, a confirmation of what they just did, a notice that their account changed), "bulk"
 * for what the firm sends many of at once or on a schedule. Every kind must choose.
 */
const URGENCY: { [K in EmailJob["kind"]]: "now" | "bulk" } = {
  "password-reset": "now",
  "email-verification": "now",
  "email-change": "now",
  "email-changed": "now",
  "email-change-requested": "now",
  "account-locked": "now",
  "account-security": "now",
  "new-sign-in": "now",
  "consultation-confirmation": "now",
  "appointment-change": "now",
  invitation: "bulk",
  // One at a time, while the owner who sent it waits for their spouse or bookkeeper to join.
  "account-invitation": "now",
  // One colleague invited by the owner, who often waits for them to join.
  "staff-invitation": "now",
  "consultation-notification": "bulk",
  "appointment-firm-notice": "bulk",
  "documents-shared": "bulk",
  "upload-digest": "bulk",
  "appointment-reminder": "bulk",
  "document-request-created": "bulk",
  "document-request-reminder": "bulk",
  "document-request-submitted": "bulk",
  "document-request-reopened": "bulk",
  "document-request-item-reopened": "bulk",
  "message-waiting": "bulk",
  // Sent one by one as the firm adds a person, or many at once by an import.
  "account-contact-added": "bulk",
  // Sent to many accounts at once each season.
  "organizer-sent": "bulk",
  "organizer-reopened": "bulk",
  "organizer-reminder": "bulk",
  "organizer-submitted": "bulk",
  // The signer waits at the screen for the code; the others are one message per step of a request.
  "signature-code": "now",
  "signature-turn": "bulk",
  "signature-declined": "bulk",
  "signature-completed": "bulk",
  "signature-voided": "bulk",
};

/** The queue for a mail of this kind. */
function emailQueue(data: EmailJob): "email" | "email-now" {
  return URGENCY[data.kind] === "now" ? "email-now" : "email";
}

/**
 * Bulk mail: 20 jobs a fetch, 5 at a time (the mailer's pool has 5 connections). A burst of 100
 * leaves in about five fetches; a batch that fills goes straight on to the next.
 */
export const BULK_MAIL_BATCH = { size: 20, concurrency: 5 };
/** Mail a person waits for: pg-boss's shortest poll, a few at a time should several arrive together. */
const NOW_MAIL_POLLING_SECONDS = 0.5;
const NOW_MAIL_BATCH = { size: 5, concurrency: 5 };

/** What the data it is about records when a kind gives up. */
const GAVE_UP: { [K in EmailJob["kind"]]?: (deps: AppDeps, job: Extract<EmailJob, { kind: K }>) => Promise<void> } = {
  "consultation-notification": consultationNotificationGaveUp,
};

function compose(deps: AppDeps, data: EmailJob): Promise<Outgoing | null> {
  return (COMPOSERS[data.kind] as Composer<EmailJob["kind"]>)(deps, data);
}

async function sendEmail(deps: AppDeps, job: Job<"email" | "email-now">): Promise<void> {
  const what = { ...job.data, jobId: job.id };
  const sent = await deps.db.selectFrom("sent_mail").select("job_id").where("job_id", "=", job.id).executeTakeFirst();
  if (sent) return;
  const outgoing = await compose(deps, job.data);
  if (!outgoing) {
    deps.logger.info({ mail: what }, "mail no longer needed");
    return;
  }
  try {
    await deps.mailer.send({ ...outgoing.message, messageId: `<${job.id}@${new URL(deps.config.publicUrl).hostname}>` });
  } catch (err) {
    const attempt = job.retryCount + 1;
    if (job.retryCount < job.retryLimit) deps.logger.warn({ err, mail: what, attempt }, "mail send failed, retrying");
    throw err;
  }
  const at = deps.now();
  try {
    await deps.db.transaction().execute(async (tx) => {
      await tx.insertInto("sent_mail").values({ job_id: job.id, kind: job.data.kind, sent_at: at }).execute();
      await outgoing.onSent?.(tx, at);
    });
  } catch (err) {
    // The mail server has the message: a retry would send it again, so the job still completes.
    deps.logger.warn({ err, mail: what }, "mail sent but not recorded");
  }
}

export const emailJob: JobKind<"email"> = {
  name: "email",
  deadLetter: "email-gave-up",
  batch: BULK_MAIL_BATCH,
  route: emailQueue,
  run: sendEmail,
};

export const emailNowJob: JobKind<"email-now"> = {
  name: "email-now",
  deadLetter: "email-gave-up",
  pollingIntervalSeconds: NOW_MAIL_POLLING_SECONDS,
  batch: NOW_MAIL_BATCH,
  run: sendEmail,
};

export const emailGaveUpJob: JobKind<"email-gave-up"> = {
  name: "email-gave-up",
  async run(deps, job) {
    // A dead letter carries the retries its job used; one queued before pg-boss 12 does not.
    deps.logger.error({ mail: job.data, attempts: (job.sourceRetryCount ?? job.retryLimit) + 1 }, "mail not sent");
    const gaveUp = GAVE_UP[job.data.kind] as ((deps: AppDeps, job: EmailJob) => Promise<void>) | undefined;
    await gaveUp?.(deps, job.data);
  },
};
