import pino, { type DestinationStream, type Logger } from "pino";

// Secrets never reach the log, whatever object someone logs.
const REDACT = [
  "password",
  "new_password",
  "password_hash",
  "token",
  "session_token",
  "sessionToken",
  "session_id",
  "code",
  "*.password",
  "*.new_password",
  "*.password_hash",
  "*.token",
  "*.session_token",
  "*.session_id",
  "*.code",
  "req.headers.authorization",
  "req.headers.cookie",
  "headers.authorization",
  "headers.cookie",
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT, censor: "[redacted]" } }, destination);
}
