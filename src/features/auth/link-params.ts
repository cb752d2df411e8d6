/**
 * The query parameters of the links in our emails that the landing page redeems: names only, so the
 * page's first load can tell them apart without the redeeming code (loaded when one is present).
 */
export const VERIFY_TOKEN_PARAM = "verify_token";
export const EMAIL_CHANGE_TOKEN_PARAM = "email_change_token";
export const EMAIL_CHANGE_CANCEL_PARAM = "email_change_cancel";
