import pino, { type DestinationStream, type Logger } from "pino";

const SECRET_KEYS = [
  "password",
  "new_password",
  "password_hash",
  "token",
  "session_token",
  "sessionToken",
  "session_id",
  "access_token",
  "id_token",
  "refresh_token",
];

// Secrets never reach the log, whatever object someone logs: at the top, one level down, and in the
// cause of a logged error (an OAuth library's error can carry the provider's token response).
// `code` is deliberately not here: err.code holds SQLSTATEs and errnos the logs need, and the
// OAuth code is never logged under that name (it stays inside the Google callback).
const REDACT = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((key) => `*.${key}`),
  ...SECRET_KEYS.map((key) => `err.cause.${key}`),
  "req.headers.authorization",
  "req.headers.cookie",
  "headers.authorization",
  "headers.cookie",
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT, censor: "[redacted]" } }, destination);
}
