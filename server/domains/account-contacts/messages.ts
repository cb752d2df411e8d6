// Words the client's page shows as they are, shared with the service that answers them.

/** Why an owner whose address is unproven may not invite (docs/security.md, Round 4). */
export const VERIFY_FIRST =
  "Verify your email address before inviting anyone: open the link we emailed you, or ask for a new one with Resend link on your dashboard.";
