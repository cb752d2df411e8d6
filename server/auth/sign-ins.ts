// Where sign-ins come from: the browser a user agent names (bowser), for the sessions list, and the
// browsers and addresses each account has signed in from, so that a sign-in from a new one can be
// mailed to the owner (not the account's very first sign-in: there is nothing to compare with yet).
import { createHash } from "node:crypto";
import Bowser from "bowser";
import type { Db } from "../db/types.ts";
import { addressKey } from "./rate-limit.ts";
import type { SignInOrigin } from "./session.ts";

const KNOWN_BROWSERS = new Set<string>(Object.values(Bowser.BROWSER_MAP));
const KNOWN_SYSTEMS = new Set<string>(Object.values(Bowser.OS_MAP));
/** An account remembers its newest browsers and addresses, not every one ever. */
const MAX_KNOWN_SIGN_INS_PER_USER = 50;
const KNOWN_SIGN_IN_KEPT_MS = 365 * 24 * 60 * 60 * 1000;

type BrowserDescription = { browser: string | null; version: string | null; os: string | null; label: string };

/**
 * The browser, its major version and the system a user agent names, only when bowser knows them:
 * anything else in the header is the sender's own words, which neither the page nor a mail repeats.
 */
export function describeUserAgent(userAgent: string | null): BrowserDescription {
  const parsed = userAgent?.trim() ? Bowser.parse(userAgent) : null;
  const browser = parsed?.browser.name && KNOWN_BROWSERS.has(parsed.browser.name) ? parsed.browser.name : null;
  const version = browser ? (/^(\d{1,4})(\.|$)/.exec(parsed?.browser.version ?? "")?.[1] ?? null) : null;
  const os = parsed?.os.name && KNOWN_SYSTEMS.has(parsed.os.name) ? parsed.os.name : null;
  const named = browser ? (version ? `${browser} ${version}` : browser) : "Unknown browser";
  return { browser, version, os, label: onSystem(named, os) };
}

function onSystem(browser: string, os: string | null): string {
  return os ? `${browser} on ${os}` : browser;
}

/**
 * Notes a sign-in of `userId` from this browser and address. Returns the id of the record when
 * this pair is new to an account that had signed in before (its owner should hear of it), else null.
 * The browser counts by name and system (not version, which changes with every update), the address
 * as the rate limits count it (an IPv6 /64).
 */
export async function noteSignIn(db: Db, userId: string, origin: SignInOrigin, now: Date): Promise<string | null> {
  const described = describeUserAgent(origin.userAgent);
  const ip = origin.ip ?? "unknown";
  const fingerprint = createHash("sha256")
    .update([described.browser ?? "", described.os ?? "", addressKey(ip)].join("\u0000"))
    .digest("hex");
  const seenBefore = await db.selectFrom("known_sign_ins").select("id").where("user_id", "=", userId).limit(1).executeTakeFirst();
  const inserted = await db
    .insertInto("known_sign_ins")
    .values({
      user_id: userId,
      fingerprint,
      browser: onSystem(described.browser ?? "Unknown browser", described.os),
      ip,
      first_seen_at: now,
      last_seen_at: now,
    })
    .onConflict((oc) => oc.columns(["user_id", "fingerprint"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) {
    await db.updateTable("known_sign_ins").set({ last_seen_at: now }).where("user_id", "=", userId).where("fingerprint", "=", fingerprint).execute();
    return null;
  }
  await db
    .deleteFrom("known_sign_ins")
    .where("user_id", "=", userId)
    .where("id", "not in", (eb) =>
      eb.selectFrom("known_sign_ins").select("id").where("user_id", "=", userId).orderBy("last_seen_at", "desc").limit(MAX_KNOWN_SIGN_INS_PER_USER),
    )
    .execute();
  return seenBefore ? inserted.id : null;
}

export async function deleteForgottenSignIns(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom("known_sign_ins")
    .where("last_seen_at", "<", new Date(now.getTime() - KNOWN_SIGN_IN_KEPT_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Whether the user had signed in before the session `sessionId` began: a browser and address noted
 * before it (kept a year, docs/decisions.md), so the dashboard greets a first sign-in with
 * "Welcome" and a return with "Welcome back".
 */
export async function signedInBefore(db: Db, userId: string, sessionId: string): Promise<boolean> {
  const earlier = await db
    .selectFrom("known_sign_ins")
    .select("known_sign_ins.id")
    .where("known_sign_ins.user_id", "=", userId)
    .where("known_sign_ins.first_seen_at", "<", (eb) => eb.selectFrom("sessions").select("sessions.created_at").where("sessions.id", "=", sessionId))
    .limit(1)
    .executeTakeFirst();
  return earlier !== undefined;
}
