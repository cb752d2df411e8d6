import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { hashPassword } from "../../server/auth/password.ts";
import type { Database } from "../../server/db/types.ts";
import type { PublicUser } from "../../server/routers/auth/schemas.ts";
import { insertUser } from "../../server/routers/auth/queries.ts";
import { ApiClient } from "./http.ts";

export const DEFAULT_PASSWORD = "Blue-Harbor-Ledger-42";

export type UserFixture = PublicUser & { password: string };

/** Inserts a user directly (argon2id-hashed password), as registration would. */
export async function createUser(
  db: Kysely<Database>,
  opts: { username?: string; email?: string; name?: string; password?: string; is_admin?: boolean } = {},
): Promise<UserFixture> {
  const suffix = randomBytes(4).toString("hex");
  const username = opts.username ?? `client_${suffix}`;
  const password = opts.password ?? DEFAULT_PASSWORD;
  const user = await insertUser(db, {
    username,
    email: opts.email ?? `${username}@example.com`,
    name: opts.name ?? `Client ${suffix}`,
    password_hash: await hashPassword(password),
    is_admin: opts.is_admin ?? false,
  });
  return { ...user, password };
}

/** An HTTP client already signed in as `user` (through the client or the admin login). */
export async function loginClient(
  baseUrl: string,
  user: { username: string | null; password: string },
  portal: "client" | "admin" = "client",
): Promise<ApiClient> {
  const client = new ApiClient(baseUrl);
  const res = await client.post(portal === "admin" ? "/api/admin/login" : "/api/auth/login", {
    username: user.username,
    password: user.password,
  });
  if (res.status !== 200) throw new Error(`login as ${user.username} failed: ${res.status} ${res.text}`);
  return client;
}
