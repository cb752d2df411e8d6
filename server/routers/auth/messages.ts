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
