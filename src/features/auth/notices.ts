// Messages the landing page shows without loading the auth dialogs' code.

/** The spec's success message of a password reset, shown again above the Login form that follows it. */
export const PASSWORD_RESET_DONE = "Password reset successfully! You can now login with your new password.";
