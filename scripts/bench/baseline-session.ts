// What every baseline server does per request, without our framework: the app's pool settings
// (server/db/database.ts), the SQL Kysely compiles the session lookup and the folder listing to,
// and a cookie read by one regular expression. The bare node:http server and the two framework
// floors (floor-server.ts) share it, so their rows differ only by the framework.
import { createHash } from "node:crypto";
import pg from "pg";
import { POOL_SIZE } from "../../server/db/database.ts";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("DATABASE_URL is required");

export const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE, min: POOL_SIZE });
pool.on("error", () => {});

// What Kysely compiles validateSessionToken (server/auth/session.ts) to.
const SESSION_SQL = `select "sessions"."id" as "session_id", "sessions"."kind", "sessions"."expires_at", "sessions"."last_used_at", "sessions"."created_at" as "signed_in_at", "users"."id", "users"."name", "users"."email", "users"."username", "users"."auth_provider", "users"."created_at", "users"."is_admin", users.email_verified_at is not null as "email_verified" from "sessions" inner join "users" on "users"."id" = "sessions"."user_id" where "sessions"."id" = $1`;
// The bench client's account has the person's id, so the floor reads its folders by it.
const FOLDERS_SQL = `select "id", "name", "parent_folder_id", "color" from "folders" where "account_id" = $1 order by lower("name"), "id"`;

export type SessionUser = {
  id: string;
  name: string;
  email: string;
  username: string | null;
  auth_provider: string;
  created_at: Date;
  is_admin: boolean;
  email_verified: boolean;
};

export async function lookupSession(cookieHeader: string | undefined): Promise<SessionUser | null> {
  const token = /(?:^|;\s*)session=([^;]+)/.exec(cookieHeader ?? "")?.[1];
  if (!token) return null;
  const id = createHash("sha256").update(token).digest("hex");
  const { rows } = await pool.query(SESSION_SQL, [id]);
  const row = rows[0];
  if (!row || Date.now() >= row.expires_at.getTime()) return null;
  const { session_id: _s, kind: _k, expires_at: _e, last_used_at: _l, signed_in_at: _i, ...user } = row;
  return user as SessionUser;
}

export async function listFolders(userId: string): Promise<unknown[]> {
  return (await pool.query(FOLDERS_SQL, [userId])).rows;
}

/** Reports the port to the bench over IPC, and closes server and pool when the bench lets go. */
export function serveForBench(server: { address(): unknown; close(): unknown; closeAllConnections(): void }): void {
  process.send?.({ port: (server.address() as { port: number }).port });
  process.on("disconnect", () => {
    server.close();
    server.closeAllConnections();
    void pool.end().then(() => process.exit(0));
  });
}
