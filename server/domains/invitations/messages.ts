// Strings the React app shares with the server, free of imports so the landing page can use them
// without pulling zod into its bundle.

/** The landing page's query parameter carrying an invitation's token (`/?invite=...`). */
export const INVITE_PARAM = "invite";

export const REGISTRATION_INVITE_ONLY = "Registration is by invitation only";

/**
 * Values of the landing page's `auth_error` parameter for a Google sign-in refused because of
 * invitations: no account may be made without one, or the Google account is not the invited address.
 */
export const GOOGLE_REFUSAL = { inviteOnly: "invite_only", otherEmail: "invite_email" } as const;
export const INVITED_EMAIL_ONLY = "This invitation is for another email address. Continue with the Google account of the invited address.";
