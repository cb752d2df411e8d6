/** The sign-in page's parameters for a portal page left without a session (session-ended.ts), apart so the landing page's first load needs no more. */
export const SESSION_ENDED_PARAM = "session_ended";
export const RETURN_TO_PARAM = "next";
