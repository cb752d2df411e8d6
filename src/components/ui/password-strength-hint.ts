/** Under every new-password field: the spec's minimum, and what else the server refuses. */
export const PASSWORD_HINT = "At least 6 characters. Common passwords, such as password123, and others easy to guess are refused.";
