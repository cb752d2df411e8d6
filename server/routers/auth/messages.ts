// Strings the React app shares with the server, kept free of imports so a page can use them
// without pulling zod into its bundle.

/** The spec's one message for every failed external sign-in (profile creation, callback errors). */
export const AUTHENTICATION_FAILED = "Authentication failed. Please try again.";

/** The landing page's query parameter (`/?auth_error=1`) for a Google sign-in that failed at the callback. */
export const AUTH_ERROR_PARAM = "auth_error";
