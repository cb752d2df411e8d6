import type { Algorithm } from "@node-rs/argon2";
import { TRPCError } from "@trpc/server";
import { dictionary } from "@zxcvbn-ts/language-common";
import { Argon2BusyError, Argon2InputError, Argon2Pool } from "./argon2-pool.ts";

// Set explicitly (docs/decisions.md, Sessions and sign-in), never the library's defaults: OWASP's argon2id minimum.
// Algorithm is an ambient const enum (not importable as a value here); 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** The 10,000 most common passwords, ranked list shipped in @zxcvbn-ts/language-common. */
const COMMON_PASSWORDS = new Set(dictionary["passwords-common"].slice(0, 10_000));
export const COMMON_PASSWORD_MESSAGE = "This password is too common. Please choose a less predictable one.";

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

const HASHING_BUSY_MESSAGE = "Sign-in is busy, please try again in a moment.";

/** Logins, registrations and password resets all hash through this one bounded pool. */
const argon2 = new Argon2Pool();

/**
 * A full queue is the server's state, not the client's fault: 503, and the client may retry at
 * once. A request that has gone gets an answer nobody reads; 499 keeps it out of the error log.
 */
function busy(): TRPCError {
  return new TRPCError({ code: "SERVICE_UNAVAILABLE", message: HASHING_BUSY_MESSAGE });
}

function poolRefusal(err: unknown, signal?: AbortSignal): unknown {
  if (err instanceof Argon2BusyError) return busy();
  if (signal?.aborted && err === signal.reason) return new TRPCError({ code: "CLIENT_CLOSED_REQUEST", message: "Request closed" });
  return err;
}

/** Refuses (503) at once while the hashing queue is full, before any other work is done. */
export function assertHashingRoom(): void {
  if (argon2.full) throw busy();
}

export async function hashPassword(password: string): Promise<string> {
  try {
    return await argon2.hash(password, ARGON2_OPTIONS);
  } catch (err) {
    throw poolRefusal(err);
  }
}

// A real argon2id hash of a random password: verifying against it costs the same as a real check,
// so a missing user is not revealed by timing (exactly one verify either way).
let dummyHash: Promise<string> | undefined;
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(crypto.randomUUID()).catch((err: unknown) => {
    // Made while the queue was full: the next login tries again.
    dummyHash = undefined;
    throw err;
  });
  return dummyHash;
}

export const passwordHasher = {
  async verify(storedHash: string | null, password: string, signal?: AbortSignal): Promise<boolean> {
    const target = storedHash ?? (await getDummyHash());
    try {
      const ok = await argon2.verify(target, password, signal);
      return ok && storedHash !== null;
    } catch (err) {
      // A stored hash argon2 cannot read matches no password; a broken hashing thread must not
      // pass for a wrong password (every login would fail silently), so it surfaces as a 500.
      if (err instanceof Argon2InputError) return false;
      throw poolRefusal(err, signal);
    }
  },
};
