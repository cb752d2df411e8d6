import { TRPCError } from "@trpc/server";
import { INVALID_DATA_VALUE_DETAIL, isDatabaseUnavailable, isInvalidDataValue, SERVICE_UNAVAILABLE_DETAIL } from "../db/errors.ts";
import { resolveSessionAccount, setSessionAccount } from "../domains/accounts/queries.ts";
import { firmScopeOf } from "./firm-scope.ts";
import { baseProcedure } from "./init.ts";
import { mayUse, missingRightMessage, type StaffRight } from "./staff-rights.ts";

/**
 * Every procedure: resolves the session (if a token came with the request), turns a lost
 * database connection into 503 and a value Postgres refuses (NUL in text, year 0) into 400
 * instead of 500. Session lookup happens here rather than in context creation so that its
 * failures take the same path as the procedure's.
 */
export const publicProcedure = baseProcedure.use(async ({ ctx, next }) => {
  const result = await (async () => {
    const auth = await ctx.resolveSession();
    return next({ ctx: { session: auth?.session ?? null, user: auth?.user ?? null, sessionStaff: auth?.staff ?? null } });
  })().catch((err: unknown) => {
    throw databaseErrorForClient(err) ?? err;
  });
  if (!result.ok) {
    const mapped = databaseErrorForClient(result.error.cause);
    if (mapped) throw mapped;
  }
  return result;
});

function databaseErrorForClient(err: unknown): TRPCError | null {
  if (isDatabaseUnavailable(err)) return new TRPCError({ code: "SERVICE_UNAVAILABLE", message: SERVICE_UNAVAILABLE_DETAIL, cause: err });
  if (isInvalidDataValue(err)) return new TRPCError({ code: "BAD_REQUEST", message: INVALID_DATA_VALUE_DETAIL, cause: err });
  return null;
}

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user || !ctx.session) throw new TRPCError({ code: "UNAUTHORIZED", message: "Not authenticated" });
  return next({ ctx: { user: ctx.user, session: ctx.session } });
});

/**
 * Admin data needs an admin user signed in through /admin (the stricter admin session). Any of the
 * firm's people passes: what they may do is `ctx.staff`, which `staffProcedure` checks, and the
 * client accounts they reach is `ctx.firmScope` (firm-scope.ts), which every firm query takes.
 */
export const adminProcedure = authedProcedure.use(async ({ ctx, next }) => {
  if (!ctx.user.is_admin || ctx.session.kind !== "admin") {
    throw new TRPCError({ code: "FORBIDDEN", message: "Admin access required" });
  }
  // Read with the session, on every request (auth/staff-access.ts): a change of rights holds from the next one.
  const staff = ctx.sessionStaff;
  if (!staff) throw new TRPCError({ code: "FORBIDDEN", message: "Admin access required" });
  return next({ ctx: { staff, firmScope: firmScopeOf(staff, ctx.user.id) } });
});

/**
 * The one place a right is checked (docs/security.md, "Staff roles and rights"): owners and admins
 * pass, a staff member needs every one of `rights` (one, but for the account export), else 403
 * naming the first one missing.
 */
export function staffProcedure(...rights: [StaffRight, ...StaffRight[]]) {
  return adminProcedure.use(({ ctx, next }) => {
    const missing = rights.find((right) => !mayUse(ctx.staff, right));
    if (missing) throw new TRPCError({ code: "FORBIDDEN", message: missingRightMessage(missing) });
    return next();
  });
}
/** The 403's detail of what only the firm's owner may do (docs/safeguards.md, "314.4(h) Incident response plan, and 314.4(j) notifying the FTC"). */
export const OWNER_ONLY_DETAIL = "Only the firm's owner may do this";

/** What the firm's owner alone may do, above every right (ending every session of the firm). */
export const ownerProcedure = adminProcedure.use(({ ctx, next }) => {
  if (ctx.staff.role !== "owner") throw new TRPCError({ code: "FORBIDDEN", message: OWNER_ONLY_DETAIL });
  return next();
});

export const NO_ACCOUNT_DETAIL = "No client account is open for you";
/** The client paths' answer to one of the firm's people, who has no client account (docs/security.md, "Round 4"). */
export const STAFF_NO_CLIENT_ACCOUNT_DETAIL = "The firm's people have no client account: work on clients' accounts in the admin portal";

/**
 * A client's data paths: the signed-in person and the account they act on (ctx.account). Read from
 * the database on every request (docs/security.md, "Client accounts"), so a person removed from an
 * account, or whose portal access was turned off, gets a 404 on their next request on any instance.
 * One of the firm's people without a client account (as every staff member now is) gets a 403 saying so.
 */
export const clientProcedure = authedProcedure.use(async ({ ctx, next }) => {
  const account = await ctx.onceForAccount(async () => {
    const found = await resolveSessionAccount(ctx.db, ctx.session.id, ctx.user.id);
    if (!found) return null;
    const { saved, ...current } = found;
    if (saved !== current.id) await setSessionAccount(ctx.db, ctx.session.id, current.id);
    return current;
  });
  if (!account && ctx.user.is_admin) throw new TRPCError({ code: "FORBIDDEN", message: STAFF_NO_CLIENT_ACCOUNT_DETAIL });
  if (!account) throw new TRPCError({ code: "NOT_FOUND", message: NO_ACCOUNT_DETAIL });
  return next({ ctx: { account } });
});
