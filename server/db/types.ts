import type { ColumnType, Generated, JSONColumnType, Kysely, Transaction } from "kysely";
import type { Template } from "../domains/organizers/schemas.ts";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>;

export interface UsersTable {
  id: Generated<string>;
  username: string | null;
  email: string;
  name: string;
  password_hash: string | null;
  auth_provider: Generated<string>;
  google_subject: string | null;
  is_admin: Generated<boolean>;
  created_at: Timestamp;
  /** Raised each time all of the user's sessions are ended; a sign-in checked under an older one opens none. */
  session_epoch: Generated<number>;
  /** When the user showed they receive mail at `email`; null until then. */
  email_verified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The firm's people (admin users): owner, admin or staff; null for clients (docs/decisions.md, "Staff roles and rights (issue 33)"). */
  staff_role: "owner" | "admin" | "staff" | null;
  /** What a `staff` member may do (trpc/staff-rights.ts); owners and admins may do everything. */
  staff_rights: ColumnType<string[], string[] | undefined, string[]>;
  /** Set when the firm deactivated the person: no sign-in, no session; their history stays. */
  deactivated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** What the person's portal, emails and PDFs speak (docs/i18n.md). */
  language: Generated<"en" | "es">;
}

/** A client account: what owns a client's data (docs/decisions.md, "Client accounts (issue 32)"). */
export interface AccountsTable {
  id: Generated<string>;
  name: string;
  kind: "individual" | "household" | "business";
  /** MB (MiB) of documents this account may store; null for the firm's default (CLIENT_QUOTA_MB). */
  storage_quota_mb: number | null;
  created_at: Timestamp;
  /** When a claim of an unproven login left this account for the firm to review (docs/security.md, Round 4); null otherwise. */
  claim_review_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The login that claim took out of it (the address's owner now); null once reviewed, or that login is gone. */
  claim_review_user_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A view (migration client_accounts): each account's first owner, whom the firm's lists name it by. */
export interface AccountOwnersView {
  account_id: ColumnType<string, never, never>;
  id: ColumnType<string, never, never>;
  username: ColumnType<string | null, never, never>;
  email: ColumnType<string, never, never>;
  name: ColumnType<string, never, never>;
  email_verified_at: ColumnType<Date | null, never, never>;
}

/** A person who reaches an account. */
export type HouseholdRole = "taxpayer" | "spouse" | "dependent";

export interface AccountContactsTable {
  account_id: string;
  user_id: string;
  role: "owner" | "member";
  /** A household's person: taxpayer, spouse or dependent; null elsewhere (migration 2026-12-08T0210). */
  household_role: ColumnType<HouseholdRole | null, HouseholdRole | null | undefined, HouseholdRole | null>;
  /** May sign in to see the account. */
  portal_access: Generated<boolean>;
  /** Gets the account's emails. */
  notify: Generated<boolean>;
  created_at: Timestamp;
}

/** A staff member assigned to a client account (reaches it without the all_clients right). */
export interface AccountAssigneesTable {
  account_id: string;
  user_id: string;
  assigned_at: Timestamp;
}

/** A client account an invited staff member is to look after: an assignment once they accept. */
export interface InvitationAssignmentsTable {
  invitation_id: string;
  account_id: string;
  assigned_at: Timestamp;
}

/** The firm's private notes on a client account; clients never read them. */
export interface AccountNotesTable {
  id: Generated<string>;
  account_id: string;
  /** Null once the author's user row is gone. */
  author_id: string | null;
  body: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  /** SHA-256 of the token, hex; the token itself is never stored. */
  id: string;
  user_id: string;
  kind: "client" | "admin";
  expires_at: RequiredTimestamp;
  last_used_at: Timestamp;
  created_at: Timestamp;
  /** What the sessions list shows and revokes by: neither the token nor its hash. */
  public_id: Generated<string>;
  /** The address and user agent of the sign-in that opened the session. */
  ip: string | null;
  user_agent: string | null;
  /** When the person at this session last showed the password, a code or a sign-in (docs/security.md, Round 3). */
  proven_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** When they last showed a second factor (a code, or a passkey that stands for both). */
  second_factor_proven_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The client account this session is acting on; re-checked on every request. */
  account_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A user's authenticator app (RFC 6238); see server/auth/totp.ts. */
export interface TotpCredentialsTable {
  user_id: string;
  /** The key, encrypted when TOTP_ENCRYPTION_KEY is set; never returned once set up. */
  secret: string;
  /** Null while set up but not yet confirmed with a code. */
  enabled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The last time step a code was accepted for; a code of this step or an earlier one is refused. */
  last_used_step: number | null;
  created_at: Timestamp;
}

export interface BackupCodesTable {
  id: Generated<string>;
  user_id: string;
  /** SHA-256 of the normalized code, hex. */
  code_hash: string;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
}

/** The step between a right password and the second factor (`verify`), or the enrolment an account must make first (`enrol`). */
export interface TwoFactorChallengesTable {
  /** SHA-256 of the challenge handed to the client, hex. */
  id_hash: string;
  user_id: string;
  purpose: "verify" | "enrol";
  kind: "client" | "admin";
  /** The user's session epoch when the password (or Google) was checked. */
  session_epoch: number;
  return_token: Generated<boolean>;
  /** For a Google sign-in: SHA-256 of the cookie of the browser that finished it; only that browser may go on. */
  browser_hash: string | null;
  expires_at: RequiredTimestamp;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
}

export interface PasskeysTable {
  id: Generated<string>;
  user_id: string;
  /** The WebAuthn credential id, base64url. */
  credential_id: string;
  public_key: Uint8Array;
  /** int8: pg hands it back as text. */
  counter: ColumnType<string | number, number | undefined, number>;
  /** Comma-separated WebAuthn transports. */
  transports: Generated<string>;
  name: string;
  created_at: Timestamp;
  last_used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Added under a fresh proof of the owner (password, code or sign-in within 10 minutes). */
  proven: Generated<boolean>;
  /** Added under a fresh second factor: only such a passkey stands for both factors of an admin. */
  second_factor_proven: Generated<boolean>;
}

export interface WebauthnChallengesTable {
  challenge_hash: string;
  purpose: "register" | "login";
  user_id: string | null;
  kind: "client" | "admin" | null;
  expires_at: RequiredTimestamp;
  created_at: Timestamp;
}

export interface EmailChangesTable {
  id: Generated<string>;
  user_id: string;
  old_email: string;
  /** Whether the old address was a proven one: only then is it told of the change (it names the new address). */
  old_email_verified: boolean;
  new_email: string;
  /** SHA-256 of the link's token; null until the link is sent and again once it is used. */
  token_hash: string | null;
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  confirmed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
  /** SHA-256 of the token in the notice to the current address, whose link stops the change. */
  cancel_token_hash: string | null;
}

/** Browsers (by name and system) and addresses an account signed in from. */
export interface KnownSignInsTable {
  id: Generated<string>;
  user_id: string;
  /** SHA-256 of browser, system and address. */
  fingerprint: string;
  /** "Chrome on Windows", for the mail. */
  browser: string;
  ip: string;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface FirmSettingsTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

/** The firm's invitation of a client (docs/decisions.md, Invitations). */
export interface InvitationsTable {
  id: Generated<string>;
  name: string;
  email: string;
  /** SHA-256 of the link's token, hex; null until its mail is written. The token itself is never stored. */
  token_hash: string | null;
  /** The admin who invited; null once that account is gone. */
  created_by: string | null;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
  accepted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  accepted_user_id: string | null;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_sent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** A staff invitation's role and rights, given on acceptance; null for a client's invitation. */
  staff_role: "admin" | "staff" | null;
  staff_rights: ColumnType<string[], string[] | undefined, string[]>;
  /** The account the invitee joins on accepting. */
  account_id: string | null;
  role: Generated<"owner" | "member">;
  /** The household role the invitee takes on accepting (migration 2026-12-08T0210). */
  household_role: ColumnType<HouseholdRole | null, HouseholdRole | null | undefined, HouseholdRole | null>;
  notify: Generated<boolean>;
  /** The firm's plain invitation made its account: revoking it removes that account while it stays empty. */
  made_account: Generated<boolean>;
  /** The invitee's language, chosen by the firm: the invitation's email speaks it, and acceptance gives it to the person. */
  language: Generated<"en" | "es">;
}

export interface PasswordResetTokensTable {
  token_hash: string;
  user_id: string;
  expires_at: RequiredTimestamp;
  created_at: Timestamp;
}

export interface EmailVerificationTokensTable {
  /** SHA-256 of the token, hex. */
  token_hash: string;
  user_id: string;
  /** The address the link was sent to: the only one it verifies. */
  email: string;
  expires_at: RequiredTimestamp;
  created_at: Timestamp;
}

/** Browsers that signed in to an account (device cookies); see server/auth/trusted-devices.ts. */
export interface TrustedDevicesTable {
  /** SHA-256 of the cookie's token, hex. */
  token_hash: string;
  user_id: string;
  expires_at: RequiredTimestamp;
  created_at: Timestamp;
}

export interface LoginCodesTable {
  code_hash: string;
  user_id: string;
  expires_at: RequiredTimestamp;
  created_at: Timestamp;
  /** The user's session epoch when the provider vouched for the identity. */
  session_epoch: number;
  /** SHA-256 of the cookie set in the browser that finished the sign-in; only it may redeem the code. */
  browser_hash: string | null;
}

export interface FoldersTable {
  id: Generated<string>;
  account_id: string;
  parent_folder_id: string | null;
  name: string;
  color: string;
  /** Only its person (private_to) and the firm see it and what is in it (migration 2026-12-08T0220). */
  is_private: Generated<boolean>;
  /** Whose private folder it is; null once that person is deleted (then nobody of the account sees it). */
  private_to: string | null;
  created_at: Timestamp;
}

export interface DocumentsTable {
  id: Generated<string>;
  account_id: string;
  folder_id: string | null;
  original_filename: string;
  storage_key: string;
  content_type: string;
  file_size: number;
  sha256: string;
  upload_date: Timestamp;
  /** Who uploaded it: null (older rows) or the owner for the client's own upload, an admin for one shared by the firm. */
  uploaded_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the document was moved to the trash; null while it is live. A trashed document is in no folder. */
  deleted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The folder a trashed document was deleted from (restore puts it back there, if it still exists); no foreign key. */
  trashed_from_folder_id: string | null;
  /** A share the firm pulled back: in the trash out of the client's sight (migration 0580). */
  pulled_back: Generated<boolean>;
  /** Uploaded by the firm for a signature request not sent yet: out of the client's sight (migration 2026-12-08T0200). */
  held_for_signature: Generated<boolean>;
  /** The document request it was uploaded for, if any. */
  request_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The item of that request's checklist it was uploaded for, if any. */
  request_item_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The organizer it was uploaded as an answer for, if any (migration 0620). */
  organizer_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The file question of that organizer it answers. */
  organizer_question_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The lexemes of the text extracted from its content (documents/content-text.ts); null: none (yet). */
  content_vector: ColumnType<string | null, never, string | null>;
  /** When extracting its text was tried (done, skipped, or nothing to read); null: not yet (the backfill's worklist). */
  text_extracted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Generated: the name (weight A) and content_vector (weight B), under the GIN index search reads. */
  search_vector: ColumnType<string, never, never>;
  /** Set on a signed document and its original (signatures): no rename, move or trash before it. */
  retained_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** One item of a request's checklist ("2025 W-2 from each employer"). */
export interface DocumentRequestItemsTable {
  id: Generated<string>;
  request_id: string;
  /** 0, 1, 2... in the order the firm listed them. */
  position: number;
  title: string;
  /** Stored open or done; "uploaded" is an open item with a live document (requests/service.ts). */
  status: ColumnType<"open" | "done", "open" | "done" | undefined, "open" | "done">;
  done_at: Date | null;
  created_at: Timestamp;
}

/** A request the firm reuses each season: its title, message and checklist. */
export interface RequestTemplatesTable {
  id: Generated<string>;
  title: string;
  description: Generated<string>;
  /** The items' titles, in order (JSON). */
  items: ColumnType<string[], string, string>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A questionnaire the firm sends (domains/organizers): `template` is the JSON the template schema validates. */
export interface OrganizerTemplatesTable {
  id: Generated<string>;
  name: string;
  template: JSONColumnType<Template>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Deleted by the firm: out of its list; organizers sent from it keep their copies. */
  archived_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export type OrganizerStatus = "draft" | "sent" | "submitted" | "reopened";

/** One organizer sent to a client account, with its own copy of the template as sent. */
export interface OrganizersTable {
  id: Generated<string>;
  account_id: string;
  template_id: string | null;
  template: JSONColumnType<Template>;
  title: string;
  due_date: ColumnType<string | null, string | null | undefined, string | null>;
  status: ColumnType<OrganizerStatus, OrganizerStatus | undefined, OrganizerStatus>;
  /** The account's folder its file answers go into (made at the first upload). */
  folder_id: ColumnType<string | null, string | null | undefined, string | null>;
  reopen_comment: ColumnType<string | null, string | null | undefined, string | null>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  sent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  submitted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The due date the reminder was queued for (jobs/organizer-reminders.ts). */
  due_reminder_for: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One answer: `value` (JSON), or for a sensitive question `sealed` (organizers/sealing.ts) with value null. */
export interface OrganizerAnswersTable {
  organizer_id: string;
  question_id: string;
  value: ColumnType<unknown, string | null, string | null>;
  sealed: string | null;
  /** Copied from last year's organizer; cleared when the client confirms or changes it. */
  from_last_year: ColumnType<boolean, boolean | undefined, boolean>;
  reviewed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  reviewed_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** Raised by each change of the answer. */
  version: ColumnType<number, number | undefined, number>;
  updated_at: Timestamp;
}

export interface DocumentRequestsTable {
  id: Generated<string>;
  account_id: string;
  title: string;
  description: Generated<string>;
  /** YYYY-MM-DD on the firm's calendar. */
  due_date: string | null;
  folder_id: string | null;
  status: ColumnType<"open" | "submitted" | "done", "open" | "submitted" | "done" | undefined, "open" | "submitted" | "done">;
  /** The firm's answer when it marks the request done or reopens it. */
  comment: string | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  submitted_at: Date | null;
  /** The contact who submitted it; null for older rows or once they are deleted. */
  submitted_by: ColumnType<string | null, string | null | undefined, string | null>;
  done_at: Date | null;
  /** The due date the reminder 3 days before was queued for (each reminder goes once). */
  early_reminder_for: string | null;
  /** The due date the reminder on the day was queued for. */
  due_reminder_for: string | null;
}

export interface AppointmentsTable {
  id: Generated<string>;
  account_id: string;
  title: string;
  description: string;
  appointment_date: RequiredTimestamp;
  status: "requested" | "scheduled" | "completed" | "cancelled";
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The meeting type a client booked (self-booking); null for requests and the firm's own entries. */
  meeting_type_id: string | null;
  /** When a booked meeting ends; null with `during`. */
  ends_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** tstzrange from the start to the end of the buffer after it; written with tstzrange(), read through lower()/upper(). */
  during: ColumnType<string | null, string | null | undefined, string | null>;
  /** SEQUENCE of the appointment's calendar event. */
  ics_sequence: Generated<number>;
  /** The start time whose reminder is queued (or needs none). */
  reminder_for: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The contact who booked or asked for it; null for the firm's own entries and older rows. */
  booked_by: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The firm's booking rules: one row (id is always true). */
export interface BookingSettingsTable {
  id: Generated<boolean>;
  min_notice_hours: number;
  horizon_days: number;
  max_upcoming_bookings: Generated<number>;
  /** Self-booking skips the US federal holidays (migration 2026-12-07T0701_federal_holidays). */
  skip_federal_holidays: Generated<boolean>;
  updated_at: Timestamp;
}

/** Weekly opening hours on the firm's clock; several ranges a weekday may overlap. */
export interface AvailabilityRangesTable {
  id: Generated<string>;
  /** ISO weekday, Monday = 1. */
  weekday: number;
  /** Minutes after midnight: 9:00 is 540, the end of the day 1440. */
  start_minute: number;
  end_minute: number;
}

export interface DaysOffTable {
  /** YYYY-MM-DD on the firm's calendar. */
  day: string;
}

export interface MeetingTypesTable {
  id: Generated<string>;
  name: string;
  duration_minutes: number;
  /** Time kept free after the meeting. */
  buffer_minutes: number;
  location: "office" | "phone" | "video";
  /** A video link, a phone number or directions; may be empty. */
  location_detail: string;
  requires_approval: boolean;
  created_at: Timestamp;
  /** Deleted types stay for the appointments that name them, and are no longer offered. */
  deleted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface ConsultationRequestsTable {
  id: Generated<string>;
  name: string;
  email: string;
  phone: string;
  service: string | null;
  preferred_date: string | null;
  preferred_time: string | null;
  message: string;
  created_at: Timestamp;
  handled_at: Date | null;
  email_sent_at: Date | null;
  /** When the notification gave up after its last retry; cleared by a resend. */
  email_failed_at: Date | null;
}

/** Mail jobs whose message the mail server accepted (see the mail_jobs migration). */
export interface SentMailTable {
  job_id: string;
  kind: string;
  sent_at: Timestamp;
}

export interface SiteContentTable {
  section: string;
  key: string;
  value: string;
  updated_at: Timestamp;
}

/** Kept by triggers (migration row_counts); read-only for the app. */
export interface RowCountsTable {
  table_name: "users" | "documents" | "folders" | "appointments";
  row_count: number;
}

/** Bumped by a trigger on every write to site_content (migration site_content_version). */
export interface SiteContentVersionTable {
  id: boolean;
  version: number;
}

/** The firm's uploaded site pictures and video, one per slot (migration site_media). */
export interface SiteMediaTable {
  slot: "logo" | "hero" | "about" | "video" | "captions";
  name: string;
  storage_key: string;
  content_type: string;
  byte_size: ColumnType<number, number, number>;
  width: number | null;
  height: number | null;
  original_filename: string;
  uploaded_at: RequiredTimestamp;
}

/** A stored object's data key, wrapped by a master key (migration document_encryption). */
export interface StoredObjectKeysTable {
  storage_key: string;
  wrapped_key: Buffer;
  master_key_id: string;
  created_at: Timestamp;
}

/** One row of the append-only activity trail (server/domains/activity/record.ts). */
export interface ActivityEventsTable {
  id: ColumnType<string, never, never>;
  occurred_at: RequiredTimestamp;
  /** The client account the event concerns; null for the firm's own (site content). */
  account_id: string | null;
  /** That client's username (or email) then: the row outlives the account. */
  client_label: string | null;
  /** Who acted; null for the system, or for a failed sign-in to no account. */
  actor_id: string | null;
  actor_role: "client" | "admin" | "system";
  actor_label: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  detail: ColumnType<Record<string, unknown>, string | undefined, never>;
  ip: string | null;
  user_agent: string | null;
}

/** A batch of uploads waiting for its email (documents/upload-notices.ts). */
export interface UploadNoticesTable {
  id: Generated<string>;
  /** The account whose documents these are. */
  account_id: string;
  /** "client": the firm's uploads, told to the client; "firm": the client's uploads, in the firm's digest. */
  audience: "client" | "firm";
  opened_at: RequiredTimestamp;
  due_at: RequiredTimestamp;
  closed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface UploadNoticeDocumentsTable {
  notice_id: string;
  document_id: string;
}

export type InboxItemKind =
  | "upload"
  | "request_submitted"
  | "organizer_submitted"
  | "consultation"
  | "appointment_request"
  | "message"
  | "appointment_booked"
  | "appointment_rescheduled"
  | "appointment_cancelled"
  | "signature_viewed"
  | "signature_signed"
  | "signature_declined"
  | "signature_completed";

/** Something that arrived for the firm (server/domains/inbox/queries.ts), unread until an admin opens it. */
export interface InboxItemsTable {
  id: ColumnType<string, never, never>;
  kind: InboxItemKind;
  /** The client account it is about; null for a consultation request from a visitor. */
  account_id: string | null;
  /** The document (of an upload batch, the latest), request, consultation or appointment. */
  subject_id: string;
  summary: ColumnType<Record<string, unknown>, string, string>;
  first_at: RequiredTimestamp;
  last_at: RequiredTimestamp;
  read_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The person of the firm who marked it read. */
  read_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The person who acted (a client's contact; null for a visitor's consultation, or once they are deleted). */
  actor_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One client's conversation with the firm (domains/messages); read marks are message sequence numbers. */
export interface MessageThreadsTable {
  id: Generated<string>;
  account_id: string;
  /** A conversation only one person of the account and the firm read (migration 2026-12-07T0700_private_conversations). */
  is_private: ColumnType<boolean, boolean | undefined, boolean>;
  /** The person of the account who reads a private conversation; null once they are deleted (it stays private). */
  private_to: ColumnType<string | null, string | null | undefined, string | null>;
  last_seq: ColumnType<number, number | undefined, number>;
  last_message_at: RequiredTimestamp;
  client_read_seq: ColumnType<number, number | undefined, number>;
  firm_read_seq: ColumnType<number, number | undefined, number>;
  /** The person of the firm who read the conversation last. */
  firm_read_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the email about this side's unread messages goes; null while no burst is open. */
  client_mail_due_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  firm_mail_due_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface MessagesTable {
  id: Generated<string>;
  seq: ColumnType<number, never, never>;
  account_id: string;
  /** Its conversation (message_threads.id). */
  thread_id: string;
  /** The person who wrote it (a contact of the account, or an admin); null once they are deleted. */
  sender_id: string | null;
  sender_role: "client" | "admin";
  text: string;
  created_at: RequiredTimestamp;
}

export interface MessageAttachmentsTable {
  message_id: string;
  document_id: string;
}

export type SignatureKind = "engagement_letter" | "form_8879" | "other";
export type SignatureRequestStatus = "sent" | "partially_signed" | "completed" | "declined" | "voided";
export type SignatureFieldType = "signature" | "initials" | "date" | "name" | "text" | "checkbox";
export type IdentityMethod = "email_code" | "second_factor" | "kba" | "in_person";

/** A request to sign one of an account's PDFs (domains/signatures). */
export interface SignatureRequestsTable {
  id: Generated<string>;
  account_id: string;
  document_id: string;
  title: string;
  kind: SignatureKind;
  signing_order: "parallel" | "sequential";
  status: ColumnType<SignatureRequestStatus, SignatureRequestStatus | undefined, SignatureRequestStatus>;
  due_date: ColumnType<string | null, string | null | undefined, string | null>;
  message: ColumnType<string, string | undefined, string>;
  created_by: string | null;
  /** SHA-256 (hex) of the original when the request was made. */
  original_sha256: string;
  sealed_document_id: ColumnType<string | null, string | null | undefined, string | null>;
  sealed_sha256: ColumnType<string | null, string | null | undefined, string | null>;
  void_reason: ColumnType<string | null, string | null | undefined, string | null>;
  last_reminded_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The due date the automatic reminder was queued for (jobs/signature-reminders.ts). */
  due_reminder_for: ColumnType<string | null, string | null | undefined, string | null>;
  completed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One signer of a request, and the evidence of their signature. */
export interface SignatureSignersTable {
  id: Generated<string>;
  request_id: string;
  position: number;
  user_id: string | null;
  /** A slot held for an invited client: bound to the user who accepts that invitation with its address. */
  invitation_id: ColumnType<string | null, string | null | undefined, string | null>;
  name: string;
  email: string;
  status: ColumnType<"pending" | "signed" | "declined", "pending" | "signed" | "declined" | undefined, "pending" | "signed" | "declined">;
  viewed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  consent_version: ColumnType<string | null, string | null | undefined, string | null>;
  consented_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  consent_ip: ColumnType<string | null, string | null | undefined, string | null>;
  identity_method: ColumnType<IdentityMethod | null, IdentityMethod | null | undefined, IdentityMethod | null>;
  identity_result: ColumnType<string | null, string | null | undefined, string | null>;
  identity_checked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  identity_checked_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** SHA-256 of the pending email code; never the code. */
  code_hash: ColumnType<string | null, string | null | undefined, string | null>;
  code_expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  code_attempts: ColumnType<number, number | undefined, number>;
  signed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  sign_ip: ColumnType<string | null, string | null | undefined, string | null>;
  sign_user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  signature_type: ColumnType<"typed" | "drawn" | null, "typed" | "drawn" | null | undefined, "typed" | "drawn" | null>;
  signature_text: ColumnType<string | null, string | null | undefined, string | null>;
  signature_image: ColumnType<string | null, string | null | undefined, string | null>;
  declined_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  decline_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the firm last reminded this signer: once a day at most (docs/security.md, Round 4). */
  last_reminded_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A field placed on the PDF for one signer; position and size are fractions of the page (0..1, from its top left). */
export interface SignatureFieldsTable {
  id: Generated<string>;
  request_id: string;
  signer_position: number;
  ordinal: number;
  type: SignatureFieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: ColumnType<boolean, boolean | undefined, boolean>;
  value: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A request's own audit trail, oldest first; never changed. */
export interface SignatureEventsTable {
  id: ColumnType<string, never, never>;
  request_id: string;
  occurred_at: RequiredTimestamp;
  action: string;
  signer_position: number | null;
  actor_id: string | null;
  actor_label: string;
  detail: ColumnType<Record<string, unknown>, string, string>;
  ip: string | null;
  user_agent: string | null;
}

/** A person's agreement to a version of the ESIGN disclosure. */
export interface EsignConsentsTable {
  id: Generated<string>;
  user_id: string;
  request_id: string | null;
  disclosure_version: string;
  consented_at: RequiredTimestamp;
  ip: string | null;
  user_agent: string | null;
}

/** The self-signed sealing certificate (PKCS#12, base64) and its password, sealed like TOTP secrets. */
export interface SigningCertificatesTable {
  id: string;
  p12: string;
  sealed_password: string;
  created_at: Timestamp;
}

/** A legal hold on a client account: nothing of it is disposed of while it stands (migration retention). */
export interface LegalHoldsTable {
  account_id: string;
  reason: string;
  /** Who placed it; null once their user row is gone. */
  placed_by: string | null;
  placed_at: RequiredTimestamp;
}

export interface Database {
  users: UsersTable;
  accounts: AccountsTable;
  account_contacts: AccountContactsTable;
  account_assignees: AccountAssigneesTable;
  invitation_assignments: InvitationAssignmentsTable;
  account_notes: AccountNotesTable;
  account_owners: AccountOwnersView;
  sessions: SessionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  login_codes: LoginCodesTable;
  trusted_devices: TrustedDevicesTable;
  email_verification_tokens: EmailVerificationTokensTable;
  folders: FoldersTable;
  documents: DocumentsTable;
  appointments: AppointmentsTable;
  booking_settings: BookingSettingsTable;
  availability_ranges: AvailabilityRangesTable;
  days_off: DaysOffTable;
  meeting_types: MeetingTypesTable;
  consultation_requests: ConsultationRequestsTable;
  sent_mail: SentMailTable;
  site_content: SiteContentTable;
  row_counts: RowCountsTable;
  site_content_version: SiteContentVersionTable;
  site_media: SiteMediaTable;
  stored_object_keys: StoredObjectKeysTable;
  totp_credentials: TotpCredentialsTable;
  backup_codes: BackupCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  email_changes: EmailChangesTable;
  known_sign_ins: KnownSignInsTable;
  firm_settings: FirmSettingsTable;
  upload_notices: UploadNoticesTable;
  upload_notice_documents: UploadNoticeDocumentsTable;
  activity_events: ActivityEventsTable;
  document_requests: DocumentRequestsTable;
  document_request_items: DocumentRequestItemsTable;
  request_templates: RequestTemplatesTable;
  organizer_templates: OrganizerTemplatesTable;
  organizers: OrganizersTable;
  organizer_answers: OrganizerAnswersTable;
  invitations: InvitationsTable;
  inbox_items: InboxItemsTable;
  message_threads: MessageThreadsTable;
  messages: MessagesTable;
  message_attachments: MessageAttachmentsTable;
  signature_requests: SignatureRequestsTable;
  signature_signers: SignatureSignersTable;
  signature_fields: SignatureFieldsTable;
  signature_events: SignatureEventsTable;
  esign_consents: EsignConsentsTable;
  signing_certificates: SigningCertificatesTable;
  legal_holds: LegalHoldsTable;
}

/** What queries run on: the database, or a transaction of it. */
export type Db = Kysely<Database> | Transaction<Database>;
