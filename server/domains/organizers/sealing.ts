// Sensitive answers at rest (docs/security.md, "Sensitive organizer answers"): sealed with the
// app's one secret-sealing helper, the one TOTP keys use (AES-256-GCM under TOTP_ENCRYPTION_KEY,
// a fresh IV each time; marked plain when no key is set). Only the answer's JSON is sealed; which
// question it answers stays readable.
import { openTotpKey, sealTotpKey } from "../../auth/totp.ts";

export function sealAnswer(value: unknown, key: Buffer | null): string {
  return sealTotpKey(Buffer.from(JSON.stringify(value), "utf8"), key);
}

export function openAnswer(sealed: string, key: Buffer | null): unknown {
  return JSON.parse(Buffer.from(openTotpKey(sealed, key)).toString("utf8")) as unknown;
}
