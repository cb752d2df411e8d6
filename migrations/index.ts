import type { Migration } from "kysely";
import * as initialSchema from "./2026-11-22T0000_initial_schema.ts";
import * as rateLimits from "./2026-11-22T2200_rate_limits.ts";
import * as searchIndexes from "./2026-11-22T2300_search_indexes.ts";
import * as rowCounts from "./2026-11-23T0100_row_counts.ts";
import * as sessionEpoch from "./2026-11-23T1300_session_epoch.ts";
import * as emailVerification from "./2026-11-23T1000_email_verification.ts";
import * as storageQuota from "./2026-11-23T1100_storage_quota.ts";
import * as trustedDevices from "./2026-11-23T1200_trusted_devices.ts";
import * as mailJobs from "./2026-11-23T1500_mail_jobs.ts";
import * as accountSecurity from "./2026-11-23T1800_account_security.ts";
import * as documentTrash from "./2026-11-23T1600_document_trash.ts";
import * as selfBooking from "./2026-11-23T1700_self_booking.ts";
import * as siteContentVersion from "./2026-11-23T1900_site_content_version.ts";
import * as activityTrail from "./2026-11-23T2000_activity_trail.ts";
import * as documentRequests from "./2026-11-23T2200_document_requests.ts";
import * as invitations from "./2026-11-23T2100_invitations.ts";
import * as firmSharedDocuments from "./2026-11-23T2300_firm_shared_documents.ts";
import * as adminInbox from "./2026-11-23T2350_admin_inbox.ts";
import * as secureMessages from "./2026-11-24T0100_secure_messages.ts";
import * as sessionEndNotices from "./2026-11-26T0003_session_end_notices.ts";
import * as bookingLimit from "./2026-11-26T0010_booking_limit.ts";
import * as freshProofs from "./2026-11-26T0010_fresh_proofs.ts";
import * as siteSetup from "./2026-11-26T0110_site_setup.ts";
import * as siteMedia from "./2026-11-26T0120_site_media.ts";
import * as clientAccounts from "./2026-11-26T0200_client_accounts.ts";
import * as staffRoles from "./2026-11-26T0300_staff_roles.ts";
import * as accountAssignees from "./2026-11-26T0400_account_assignees.ts";
import * as requestChecklists from "./2026-11-26T0500_request_checklists.ts";
import * as accountNotes from "./2026-11-26T0520_account_notes.ts";
import * as inboxArrivals from "./2026-11-26T0530_inbox_arrivals.ts";
import * as invitationPerAccount from "./2026-11-26T0540_invitation_per_account.ts";
import * as documentContentSearch from "./2026-11-26T0560_document_content_search.ts";
import * as staffScopeNotices from "./2026-11-26T0570_staff_scope_notices.ts";
import * as pulledBackDocuments from "./2026-11-26T0580_pulled_back_documents.ts";
import * as signatureRequests from "./2026-11-26T0600_signature_requests.ts";
import * as organizers from "./2026-11-26T0620_organizers.ts";
import * as documentEncryption from "./2026-11-26T0640_document_encryption.ts";
import * as retention from "./2026-11-26T0660_retention.ts";
import * as organizerReminders from "./2026-11-26T0680_organizer_reminders.ts";
import * as signatureInbox from "./2026-11-26T0720_signature_inbox.ts";
import * as accountNameSearch from "./2026-11-27T0100_account_name_search.ts";
import * as heldAccountsOutliveTheirPeople from "./2026-11-27T0200_held_accounts_outlive_their_people.ts";
import * as signerReminders from "./2026-12-07T0301_signer_reminders.ts";
import * as preparedForInvitedPeople from "./2026-12-07T0600_prepared_for_invited_people.ts";
import * as heldForSignature from "./2026-12-08T0200_held_for_signature.ts";
import * as householdPersonRole from "./2026-12-08T0210_household_person_role.ts";
import * as privateFolders from "./2026-12-08T0220_private_folders.ts";
import * as privateConversations from "./2026-12-07T0700_private_conversations.ts";
import * as federalHolidays from "./2026-12-07T0701_federal_holidays.ts";
import * as personLanguage from "./2026-12-08T0300_person_language.ts";
import * as signedRecordsOutliveDeletion from "./2026-12-07T0200_signed_records_outlive_deletion.ts";
import * as staffHaveNoClientAccount from "./2026-12-07T0210_staff_have_no_client_account.ts";
import * as claimedAccountReview from "./2026-11-28T0100_claimed_account_review.ts";

/**
 * Every migration, by name, in order. Listed statically (rather than read from the folder at run
 * time) so the same list loads under tsx, vitest and any bundler.
 */
export const migrations: Record<string, Migration> = {
  "2026-11-22T0000_initial_schema": initialSchema,
  "2026-11-22T2200_rate_limits": rateLimits,
  "2026-11-22T2300_search_indexes": searchIndexes,
  "2026-11-23T0100_row_counts": rowCounts,
  "2026-11-23T1000_email_verification": emailVerification,
  "2026-11-23T1100_storage_quota": storageQuota,
  "2026-11-23T1200_trusted_devices": trustedDevices,
  "2026-11-23T1300_session_epoch": sessionEpoch,
  "2026-11-23T1500_mail_jobs": mailJobs,
  "2026-11-23T1600_document_trash": documentTrash,
  "2026-11-23T1700_self_booking": selfBooking,
  "2026-11-23T1800_account_security": accountSecurity,
  "2026-11-23T1900_site_content_version": siteContentVersion,
  "2026-11-23T2000_activity_trail": activityTrail,
  "2026-11-23T2200_document_requests": documentRequests,
  "2026-11-23T2100_invitations": invitations,
  "2026-11-23T2300_firm_shared_documents": firmSharedDocuments,
  "2026-11-23T2350_admin_inbox": adminInbox,
  "2026-11-24T0100_secure_messages": secureMessages,
  "2026-11-26T0003_session_end_notices": sessionEndNotices,
  "2026-11-26T0010_booking_limit": bookingLimit,
  "2026-11-26T0010_fresh_proofs": freshProofs,
  "2026-11-26T0110_site_setup": siteSetup,
  "2026-11-26T0120_site_media": siteMedia,
  "2026-11-26T0200_client_accounts": clientAccounts,
  "2026-11-26T0300_staff_roles": staffRoles,
  "2026-11-26T0400_account_assignees": accountAssignees,
  "2026-11-26T0500_request_checklists": requestChecklists,
  "2026-11-26T0520_account_notes": accountNotes,
  "2026-11-26T0530_inbox_arrivals": inboxArrivals,
  "2026-11-26T0540_invitation_per_account": invitationPerAccount,
  "2026-11-26T0560_document_content_search": documentContentSearch,
  "2026-11-26T0570_staff_scope_notices": staffScopeNotices,
  "2026-11-26T0580_pulled_back_documents": pulledBackDocuments,
  "2026-11-26T0600_signature_requests": signatureRequests,
  "2026-11-26T0620_organizers": organizers,
  "2026-11-26T0640_document_encryption": documentEncryption,
  "2026-11-26T0660_retention": retention,
  "2026-11-26T0680_organizer_reminders": organizerReminders,
  "2026-11-26T0720_signature_inbox": signatureInbox,
  "2026-11-27T0100_account_name_search": accountNameSearch,
  "2026-11-27T0200_held_accounts_outlive_their_people": heldAccountsOutliveTheirPeople,
  "2026-12-07T0301_signer_reminders": signerReminders,
  "2026-12-07T0600_prepared_for_invited_people": preparedForInvitedPeople,
  "2026-12-07T0700_private_conversations": privateConversations,
  "2026-12-07T0701_federal_holidays": federalHolidays,
  "2026-12-08T0200_held_for_signature": heldForSignature,
  "2026-12-08T0210_household_person_role": householdPersonRole,
  "2026-12-08T0220_private_folders": privateFolders,
  "2026-12-08T0300_person_language": personLanguage,
  "2026-12-07T0200_signed_records_outlive_deletion": signedRecordsOutliveDeletion,
  "2026-12-07T0210_staff_have_no_client_account": staffHaveNoClientAccount,
  "2026-11-28T0100_claimed_account_review": claimedAccountReview,
};
