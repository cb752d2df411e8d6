import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { hashPassword } from "../../server/auth/password.ts";
import { generateBackupCodes, replaceBackupCodes } from "../../server/auth/second-factor.ts";
import { generateTotpKey, sealTotpKey, totpCodeForStep, totpStep } from "../../server/auth/totp.ts";
import type { Database } from "../../server/db/types.ts";
import type { PublicUser } from "../../server/domains/auth/schemas.ts";
import { insertUser } from "../../server/domains/auth/queries.ts";
import { ApiClient, type ApiResponse } from "./http.ts";
import { clockOf } from "./server.ts";

export const DEFAULT_PASSWORD = "Blue-Harbor-Ledger-42";

/**
 * A second factor enrolled for a fixture: its authenticator key, the last time step a code of it
 * was handed out (codes are accepted once), and backup codes not used yet.
 */
export type FixtureSecondFactor = { key: Uint8Array; lastStep: number; backupCodes: string[] };

export type UserFixture = PublicUser & { password: string; secondFactor?: FixtureSecondFactor };

/**
 * The users a test file makes with one password share one hash: still the server's hashPassword
 * (argon2id, its parameters, a random salt), but made once, not tens of milliseconds of CPU for
 * each of the hundreds of users a run makes. Registration, resets and sign-ins hash as always.
 */
const hashes = new Map<string, Promise<string>>();
function hashOnce(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
    // A refused hash (the pool busy) is not kept: the next user tries again.
    hash.catch(() => hashes.delete(password));
  }
  return hash;
}

/**
 * Inserts a user directly (argon2id-hashed password), as registration would. Admins get two-factor
 * sign-in enrolled (an admin must have it), as does anyone with `two_factor: true`.
 */
export async function createUser(
  db: Kysely<Database>,
  opts: { username?: string; email?: string; name?: string; password?: string; is_admin?: boolean; two_factor?: boolean } = {},
): Promise<UserFixture> {
  const suffix = randomBytes(4).toString("hex");
  const username = opts.username ?? `client_${suffix}`;
  const password = opts.password ?? DEFAULT_PASSWORD;
  const user = await insertUser(db, {
    username,
    email: opts.email ?? `${username}@example.com`,
    name: opts.name ?? `Client ${suffix}`,
    password_hash: await hashOnce(password),
    is_admin: opts.is_admin ?? false,
  });
  // Each person gets their individual account, as registration gives a client one; its id is theirs
  // (as the migration made it for everyone who held documents before accounts), so a test may name
  // either, and it is named by the username, as the trail named a client before accounts. An admin
  // has one too, as tests have long filed documents of an admin's own.
  await db.insertInto("accounts").values({ id: user.id, name: username, kind: "individual" }).execute();
  await db.insertInto("account_contacts").values({ account_id: user.id, user_id: user.id, role: "owner" }).execute();
  const fixture: UserFixture = { ...user, password };
  if (opts.two_factor ?? opts.is_admin) fixture.secondFactor = await enrolSecondFactor(db, user.id);
  return fixture;
}

/**
 * A household of two as the firm keeps one: `owner`'s account renamed `name` and made a household,
 * `member` a member of it with no account of their own; both email addresses verified at `verifiedAt`.
 */
export async function makeHousehold(
  db: Kysely<Database>,
  { owner, member, name, verifiedAt }: { owner: UserFixture; member: UserFixture; name: string; verifiedAt: Date },
): Promise<void> {
  await db.updateTable("accounts").set({ name, kind: "household" }).where("id", "=", owner.id).execute();
  await db.deleteFrom("accounts").where("id", "=", member.id).execute();
  await db.insertInto("account_contacts").values({ account_id: owner.id, user_id: member.id, role: "member" }).execute();
  for (const user of [owner, member]) await db.updateTable("users").set({ email_verified_at: verifiedAt }).where("id", "=", user.id).execute();
}

/**
 * One of the firm's people (docs/decisions.md, "Staff roles and rights (issue 33)"): an admin user
 * with its second factor, given `role` and `rights` as the Team tab would leave them.
 */
export async function createStaffMember(
  db: Kysely<Database>,
  role: "owner" | "admin" | "staff",
  rights: string[] = [],
  opts: { username?: string; name?: string } = {},
): Promise<UserFixture> {
  const user = await createUser(db, { is_admin: true, username: opts.username ?? `staff_${randomBytes(4).toString("hex")}`, name: opts.name });
  await db.updateTable("users").set({ staff_role: role, staff_rights: rights }).where("id", "=", user.id).execute();
  return user;
}

/** Two-factor sign-in on for `userId`, as Settings would leave it, with the key kept for the test. */
export async function enrolSecondFactor(db: Kysely<Database>, userId: string): Promise<FixtureSecondFactor> {
  const key = generateTotpKey();
  // More than the 10 a user gets: a test may sign one admin in many times within 30 seconds, and
  // past the three codes the clock allows then, each sign-in takes a backup code.
  const backupCodes = Array.from({ length: 6 }, generateBackupCodes).flat();
  await db
    .insertInto("totp_credentials")
    .values({ user_id: userId, secret: sealTotpKey(key, null), enabled_at: new Date(), last_used_step: null })
    .execute();
  await replaceBackupCodes(db, userId, backupCodes, new Date());
  return { key, lastStep: -1, backupCodes };
}

/**
 * A code the server accepts now (`now`: the server's clock) and that no other sign-in of this test
 * has used: the earliest step of the three accepted (now and one either side) after the last one
 * handed out, reserved before any await, so parallel sign-ins get different ones. A fourth sign-in
 * within one 30-second step gets a backup code.
 */
export function nextSecondFactorCode(user: Pick<UserFixture, "username" | "secondFactor">, now: Date = new Date()): string {
  const factor = user.secondFactor;
  if (!factor) throw new Error(`${user.username} has no second factor`);
  const current = totpStep(now);
  // Never the previous step: if the clock crosses into the next step while the request travels,
  // that code is two steps old at the server and refused (+/-1 step); the current and the next
  // stay within the window.
  const step = Math.max(current, factor.lastStep + 1);
  if (step <= current + 1) {
    factor.lastStep = step;
    return totpCodeForStep(factor.key, step);
  }
  const backup = factor.backupCodes.shift();
  if (!backup) throw new Error(`${user.username} has no codes left for this 30 seconds`);
  return backup;
}

type Credentials = { username: string | null; email?: string; password: string; secondFactor?: FixtureSecondFactor };

/**
 * Signs `user` in on `client` (its cookies) through the client or the admin login, answering the
 * second step when the account has one (the code from the fixture's key on the server's clock).
 * The last answer: the login's, or the second step's (over REST, both carry `session_token`).
 */
export async function signIn(client: ApiClient, user: Credentials, portal: "client" | "admin" = "client"): Promise<ApiResponse> {
  const res = await client.post(portal === "admin" ? "/api/admin/login" : "/api/auth/login", { username: user.username, password: user.password });
  if (res.status !== 200 || !res.body.two_factor_required) return res;
  const code = nextSecondFactorCode(user, clockOf(client.baseUrl)?.now());
  return client.post("/api/auth/login/2fa", { challenge: res.body.challenge, code });
}

/** An HTTP client already signed in as `user` (through the client or the admin login), past the second step. */
export async function loginClient(baseUrl: string, user: Credentials, portal: "client" | "admin" = "client"): Promise<ApiClient> {
  const client = new ApiClient(baseUrl);
  const res = await signIn(client, user, portal);
  if (res.status !== 200) throw new Error(`login as ${user.username} failed: ${res.status} ${res.text}`);
  if (res.body.two_factor_setup_required) throw new Error(`${user.username} must enrol a second factor before signing in (createUser enrols admins)`);
  return client;
}
