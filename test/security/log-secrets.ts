// What a secret looks like in a log line. Session tokens, reset tokens and one-time sign-in codes
// are all 20 random bytes in base32 (32 characters); passwords are those the tests use; OAuth
// codes travel as `code=` in URLs or as a `code` field (which, unlike an error's code, has lower case).
import { DEFAULT_PASSWORD } from "../helpers/factories.ts";

export const TEST_PASSWORDS = [DEFAULT_PASSWORD, "Quiet-Orchard-77", "Copper-Kettle-Morning-9", "Granite-Willow-Sparrow-3", "Fresh-Lantern-Orbit-5"];

const PATTERNS: [string, RegExp][] = [
  ["token", /(?<![a-z2-7])[a-z2-7]{32}(?![a-z2-7])/],
  ["OAuth code in a URL", /[?&#](code|session_id|reset_token)=[^&\s"\\[]/],
  // Error codes (SQLSTATE 23505, ECONNREFUSED, OAUTH_*, BAD_REQUEST) are upper case; OAuth codes are not.
  ["code field", /"code":"(?![A-Z0-9_]+")[^"]+"/],
  ["secret field", /"(session_token|token|session_id|password|new_password|access_token|id_token|refresh_token)":"(?!\[redacted\])[^"]+"/],
  ["bearer or cookie header", /Bearer [A-Za-z0-9]|session=[a-z2-7]/],
];

export function findSecretsInLogs(lines: string[], extraSecrets: string[] = []): string[] {
  const found: string[] = [];
  for (const line of lines) {
    for (const [what, pattern] of PATTERNS) if (pattern.test(line)) found.push(`${what}: ${line.slice(0, 400)}`);
    for (const secret of [...TEST_PASSWORDS, ...extraSecrets]) if (line.includes(secret)) found.push(`secret value: ${line.slice(0, 400)}`);
  }
  return found;
}
