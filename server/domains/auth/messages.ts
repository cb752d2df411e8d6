// Strings the React app shares with the server, kept free of imports so a page can use them
// without pulling zod into its bundle.

/** The spec's one message for every failed external sign-in (profile creation, callback errors). */
export const AUTHENTICATION_FAILED = "Authentication failed. Please try again.";

/** The landing page's query parameter (`/?auth_error=1`) for a Google sign-in that failed at the callback. */
export const AUTH_ERROR_PARAM = "auth_error";

/** A sign-in's second step came too late (after 5 minutes), twice, or in another browser. */
export const SIGN_IN_EXPIRED = "This sign-in has expired. Please sign in again.";

/** A passkey sign-in that did not go through, whatever the reason. */
export const PASSKEY_SIGN_IN_FAILED = "Signing in with the passkey did not work. Please try again.";

/** An admin's passkey added without a fresh second factor does not sign in (docs/security.md, Round 3). */
export const ADMIN_PASSKEY_UNPROVEN =
  "This passkey was added without a code from your authenticator app, so it does not sign in to the firm's portal. Sign in with your password and code, then add it again.";

/**
 * A change that could take the account over (a passkey, two-factor sign-in) asked at a session whose
 * owner has not shown the password or a code in the last 10 minutes; the page asks for one and tries again.
 */
export const CONFIRM_IT_IS_YOU = "To continue, confirm it is you with your password or a code from your authenticator app.";
