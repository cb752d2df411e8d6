import { TRPCError } from "@trpc/server";
import { personClient, recordActivity } from "../activity/record.ts";
import { removeStoredObjects } from "../../storage/remove-stored-objects.ts";
import type { Context, FirmContext } from "../../trpc/context.ts";
import { RequestRefused } from "../../trpc/errors.ts";
import { assertReachesAll, type FirmScope } from "../../trpc/firm-scope.ts";
import { mayUse } from "../../trpc/staff-rights.ts";
import { deleteUserData, listUsers, lockAccountsLeftBy, lockUser, userRows } from "../auth/queries.ts";
import type { PublicUser } from "../auth/schemas.ts";
import { personExistsForFirm } from "../accounts/queries.ts";
import { accountForFirm } from "../accounts/service.ts";
import { allDocumentRows, setStorageQuotaForFirm, storageOfUsersForFirm } from "../documents/firm-queries.ts";
import { quotaBytes } from "../documents/upload.ts";
import { listPage } from "../list-page.ts";
import type { Success } from "../shared-schemas.ts";
import { countAll } from "./queries.ts";
import type { AdminStats, AdminUser, ListPageInput, Page, UserQuota, UserStorage } from "./schemas.ts";

export const ADMIN_NOT_DELETABLE = "Admin users cannot be deleted";
export const HELD_ACCOUNT_NOT_DELETABLE =
  "This person is the last one of a client account under a legal hold: lift the hold first, or add another person to the account";
export const USER_NOT_FOUND = "User not found";
export const PERSON_BEYOND_REACH =
  "This person is also in a client account you are not assigned to: deleting them would change that account. Ask someone at the firm who reaches all of their accounts";
const RECENT_COUNT = 5;

/**
 * The overview: counts and the newest people, and the newest documents (their names, uploaders and
 * emails) only for those who hold the `documents` right, as the documents list itself needs it
 * (docs/security.md, "Round 4"): without it the key is absent.
 */
export async function adminStats(ctx: FirmContext): Promise<AdminStats> {
  // The recent lists are rows only: their totals are the counts `countAll` already makes.
  const [stats, recent_users, recent_documents] = await Promise.all([
    countAll(ctx.db, ctx.firmScope),
    userRows(ctx.db, ctx.firmScope, { limit: RECENT_COUNT, offset: 0 }),
    mayUse(ctx.staff, "documents") ? allDocumentRows(ctx.db, ctx.firmScope, { limit: RECENT_COUNT, offset: 0 }) : undefined,
  ]);
  return recent_documents ? { stats, recent_users, recent_documents } : { stats, recent_users };
}

export const userPage = (ctx: FirmContext, input: ListPageInput): Promise<Page<AdminUser>> =>
  listPage(input, async (w) => {
    const { items, total } = await listUsers(ctx.db, ctx.firmScope, w);
    return { items: await withStorage(ctx, items), total };
  });

/** One query for the page's users, not one per row; each person's figures are their (first owned) account's. */
async function withStorage(ctx: Context, users: PublicUser[]): Promise<AdminUser[]> {
  const storage = new Map<string, { storage_quota_mb: number | null; used_bytes: number }>();
  for (const row of await storageOfUsersForFirm(
    ctx.db,
    users.map((u) => u.id),
  )) {
    if (!storage.has(row.id)) storage.set(row.id, row);
  }
  return users.map((user) => {
    const own = storage.get(user.id);
    // A user deleted between the two queries: listed with nothing stored and the default quota.
    return { ...user, ...userStorage(ctx, own?.storage_quota_mb ?? null, own?.used_bytes ?? 0) };
  });
}

function userStorage(ctx: Context, quotaMb: number | null, usedBytes: number): UserStorage {
  return { used_bytes: usedBytes, quota_bytes: quotaBytes(ctx.config, quotaMb), quota_mb: quotaMb };
}

/** Gives a client's account a quota of its own, or (null) returns it to the firm's default. */
export async function setUserQuota(ctx: FirmContext, input: { id: string; quota_mb: number | null }): Promise<UserQuota> {
  const accountId = await accountForFirm(ctx.db, ctx.firmScope, { user_id: input.id }, USER_NOT_FOUND);
  const updated = await setStorageQuotaForFirm(ctx.db, accountId, input.quota_mb);
  if (!updated) throw new TRPCError({ code: "NOT_FOUND", message: USER_NOT_FOUND });
  const [own] = await storageOfUsersForFirm(ctx.db, [input.id]);
  ctx.logger.info({ userId: input.id, quotaMb: input.quota_mb }, "storage quota set by admin");
  return { id: input.id, ...userStorage(ctx, input.quota_mb, own?.used_bytes ?? 0) };
}

/** Who deletes a person: the person themselves, or the firm within its asker's reach (never left out). */
export type DeletedBy = { readonly by: "self" } | { readonly by: "admin"; readonly scope: FirmScope };

/**
 * All of a user's rows go in one transaction; their stored files only after it committed (a
 * rolled-back delete must still find them). Admin accounts are refused. `who`: the user deleting
 * their own account (account settings), or the firm with its asker's reach (`scope`), which must
 * take in every account the person is in (each loses them, and those they were the last of go with
 * them), read under the person's lock, so no account can be added to them meanwhile
 * (docs/security.md, Round 4). An account under a legal hold is never disposed of by the firm this
 * way (docs/safeguards.md, "Retention and disposal"): the firm is told to lift the hold first; a
 * client deleting themselves goes, and the held account stays without them (the hold is not the
 * client's to know of). An account keeping signed records (a sealed Form 8879 within its years)
 * stays without people too, whoever deletes the person, until its release date (docs/security.md,
 * "Round 4"): the database refuses deleting those records anyway.
 */
export async function deleteUser(ctx: Context, input: { id: string }, who: DeletedBy): Promise<Success> {
  const { by } = who;
  const removed = await ctx.db.transaction().execute(async (tx) => {
    const user = await lockUser(tx, input.id);
    if (!user) throw new TRPCError({ code: "NOT_FOUND", message: USER_NOT_FOUND });
    if (user.is_admin) throw new RequestRefused(ADMIN_NOT_DELETABLE);
    if (who.by === "admin") await assertReachesAll(tx, who.scope, { people: [user.id] }, PERSON_BEYOND_REACH);
    const accounts = await lockAccountsLeftBy(tx, input.id);
    if (by === "admin" && accounts.held.length > 0) throw new RequestRefused(HELD_ACCOUNT_NOT_DELETABLE);
    const documents = await deleteUserData(tx, input.id, accounts.free);
    // The row keeps the account's id and name: the trail has no foreign key, so it outlives the account.
    await recordActivity(tx, ctx, {
      action: "user.delete",
      client: personClient(user),
      target: { type: "user", id: user.id },
      detail: {
        by,
        documents: documents.length,
        ...(accounts.held.length > 0 ? { held_accounts_kept: accounts.held } : {}),
        ...(accounts.retained.length > 0
          ? { retained_accounts_kept: accounts.retained.map((a) => ({ id: a.id, until: a.until.toISOString() })) }
          : {}),
      },
    });
    return documents;
  });
  await removeStoredObjects(ctx.storage, ctx.logger, removed);
  ctx.logger.info({ userId: input.id, documents: removed.length }, by === "admin" ? "user deleted by admin" : "user deleted their account");
  return { success: true };
}

/**
 * The firm deletes a person: one its asker reaches (firm-scope.ts), else 404 as if missing; one who
 * is also in an account beyond the asker's reach is refused (403 saying why).
 */
export async function deleteUserForFirm(ctx: FirmContext, input: { id: string }): Promise<Success> {
  if (!(await personExistsForFirm(ctx.db, ctx.firmScope, input.id))) throw new TRPCError({ code: "NOT_FOUND", message: USER_NOT_FOUND });
  return deleteUser(ctx, input, { by: "admin", scope: ctx.firmScope });
}
