/** SQLSTATE codes the app answers itself: a duplicate, and a row another row still refers to (or a missing one it names). */
export const UNIQUE_VIOLATION = "23505";
export const FOREIGN_KEY_VIOLATION = "23503";
/** An exclusion constraint refused the row: two booked appointments would overlap. */
export const EXCLUSION_VIOLATION = "23P01";

export function isPgError(err: unknown, code: string): boolean {
  return (err as { code?: unknown } | null)?.code === code;
}

export const SERVICE_UNAVAILABLE_DETAIL = "The service is temporarily unavailable. Please try again in a moment.";

// Connection-level failures: the server is down, restarting, or our connection was killed.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01", // admin_shutdown (pg_terminate_backend)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up)
  "08000",
  "08001",
  "08003",
  "08006",
]);
const UNAVAILABLE_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
  "Connection ended unexpectedly",
  "terminating connection",
];

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 5) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
  if (typeof e.message === "string" && UNAVAILABLE_MESSAGES.some((m) => (e.message as string).includes(m))) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

export const INVALID_DATA_VALUE_DETAIL = "Invalid input: text must not contain NUL characters and dates must be real calendar dates";

/**
 * A Postgres "data exception" (SQLSTATE class 22): a value zod accepted but Postgres cannot store
 * or compare, such as a NUL character in text (22021) or a date in year 0 (22008). The input is
 * at fault, not the server.
 */
export function isInvalidDataValue(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 5) return false;
  const e = err as { code?: unknown; cause?: unknown };
  if (typeof e.code === "string" && /^22[0-9A-Z]{3}$/.test(e.code)) return true;
  return isInvalidDataValue(e.cause, depth + 1);
}
