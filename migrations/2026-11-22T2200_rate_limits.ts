import { type Kysely, sql } from "kysely";

// The store of rate-limiter-flexible's RateLimiterPostgres (server/auth/rate-limit.ts), created
// here rather than by the library at start-up, so no request ever races a CREATE TABLE. The
// columns are the library's own: points consumed, and the expiry in epoch milliseconds.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("points", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expire", "bigint")
    .execute();
  await sql`create index rate_limits_expire_idx on rate_limits (expire)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("rate_limits").execute();
}
