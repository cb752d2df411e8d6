// Authenticator-app codes (RFC 6238: 6 digits, 30-second steps, HMAC-SHA1, which every app
// supports). @oslojs/otp computes the codes; which step a code belongs to is worked out here, from
// the app's clock (tests move it), so that a code can be accepted once only: the caller stores the
// step and refuses that step and earlier ones afterwards.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { createTOTPKeyURI, generateHOTP, verifyHOTP } from "@oslojs/otp";
import { decodeBase32IgnorePadding, encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";

const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
/** Steps either side of now that are still accepted: phones' clocks drift. */
const DRIFT_STEPS = 1;

/** A new 160-bit key, the size RFC 4226 recommends for HMAC-SHA1. */
export function generateTotpKey(): Uint8Array {
  return new Uint8Array(randomBytes(20));
}

/** The key as authenticator apps take it typed in: base32, upper case. */
export function totpKeyText(key: Uint8Array): string {
  return encodeBase32UpperCaseNoPadding(key);
}

export function totpKeyFromText(text: string): Uint8Array {
  return decodeBase32IgnorePadding(text.replace(/\s+/g, "").toUpperCase());
}

export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

export function totpCodeForStep(key: Uint8Array, step: number): string {
  return generateHOTP(key, BigInt(step), TOTP_DIGITS);
}

/**
 * The step `code` belongs to, among now and one step either side, and after `after` (the last
 * step accepted); null when it matches none of them.
 */
export function matchTotpStep(key: Uint8Array, code: string, now: Date, after: number | null): number | null {
  const current = totpStep(now);
  for (let step = current - DRIFT_STEPS; step <= current + DRIFT_STEPS; step++) {
    if (after !== null && step <= after) continue;
    if (verifyHOTP(key, BigInt(step), TOTP_DIGITS, code)) return step;
  }
  return null;
}

/** The otpauth:// URI a QR code carries to the app. */
export function totpKeyUri(issuer: string, accountName: string, key: Uint8Array): string {
  return createTOTPKeyURI(issuer, accountName, key, TOTP_PERIOD_SECONDS, TOTP_DIGITS);
}

const SEALED = "v1:";
const PLAIN = "plain:";

/**
 * The key as stored: AES-256-GCM under TOTP_ENCRYPTION_KEY when one is set (a copy of the database
 * alone then yields no codes), else base32 marked as plain.
 */
export function sealTotpKey(key: Uint8Array, encryptionKey: Buffer | null): string {
  if (!encryptionKey) return PLAIN + totpKeyText(key);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey, iv);
  const sealed = Buffer.concat([iv, cipher.update(key), cipher.final(), cipher.getAuthTag()]);
  return SEALED + sealed.toString("base64url");
}

class TotpKeyUnreadable extends Error {}

export function openTotpKey(stored: string, encryptionKey: Buffer | null): Uint8Array {
  if (stored.startsWith(PLAIN)) return totpKeyFromText(stored.slice(PLAIN.length));
  if (!stored.startsWith(SEALED)) throw new TotpKeyUnreadable("unknown format of a stored TOTP key");
  if (!encryptionKey) throw new TotpKeyUnreadable("a TOTP key is stored encrypted but TOTP_ENCRYPTION_KEY is not set");
  const sealed = Buffer.from(stored.slice(SEALED.length), "base64url");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  try {
    return new Uint8Array(Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]));
  } catch {
    throw new TotpKeyUnreadable("a stored TOTP key does not open with TOTP_ENCRYPTION_KEY");
  }
}
