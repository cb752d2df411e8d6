// Retention and disposal (issue 37; docs/safeguards.md, "Retention and disposal"). The firm's rules
// say how long documents are kept; the daily job (jobs/retention.ts) and the hourly trash purge
// dispose of what is past them, one account at a time: the account row locked (so a legal hold or
// an upload placed meanwhile waits, and a hold placed first stops it), the rows deleted and the
// receipt written in one transaction, and the stored objects removed once it has committed. A run
// that dies between the two leaves objects without rows, which the orphan sweep removes within
// hours (storage/sweep-orphaned-objects.ts); a second run finds nothing left to do.
import { TRPCError } from "@trpc/server";
import { removeStoredObjects } from "../../storage/remove-stored-objects.ts";
import type { Context, FirmContext } from "../../trpc/context.ts";
import type { Db } from "../../db/types.ts";
import { accountClient, recordActivity, recordSettingChange } from "../activity/record.ts";
import { findFirmSetting, upsertFirmSetting } from "../firm-setup/queries.ts";
import {
  accountsDueBy,
  accountsWithExpiredTrash,
  deleteDocumentRows,
  deleteLegalHold,
  type DisposalCandidate,
  dueDocumentsOf,
  findLegalHold,
  FORM_8879_YEARS_KEY,
  listDueByForFirm,
  listKeptWithoutPeople,
  listLegalHolds,
  lockAccountForDisposal,
  RETENTION_YEARS_KEY,
  type RetentionRules,
  upsertLegalHold,
} from "./queries.ts";
import {
  type AccountLegalHold,
  DEFAULT_RETENTION_YEARS,
  type DisposalRule,
  DUE_WINDOW_DAYS,
  type DueList,
  FORM_8879_MIN_YEARS,
  type RetentionSettings,
  TRASH_RETENTION_DAYS,
  type UpdateRetentionInput,
} from "./schemas.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Documents of one account deleted per transaction. */
const DISPOSAL_BATCH = 200;
/** A run stops after this many documents; the next run goes on. */
const DISPOSAL_MAX_PER_RUN = 20_000;

export const ACCOUNT_NOT_FOUND = "Account not found";

function wholeYears(value: string | undefined, fallback: number, min: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= min ? n : fallback;
}

export async function retentionRules(db: Db): Promise<RetentionRules> {
  const [years, form8879Years] = await Promise.all([findFirmSetting(db, RETENTION_YEARS_KEY), findFirmSetting(db, FORM_8879_YEARS_KEY)]);
  return {
    years: wholeYears(years, DEFAULT_RETENTION_YEARS, 1),
    form8879Years: wholeYears(form8879Years, FORM_8879_MIN_YEARS, FORM_8879_MIN_YEARS),
    trashDays: TRASH_RETENTION_DAYS,
  };
}

function settingsOf(rules: RetentionRules): RetentionSettings {
  return { years_after_last_activity: rules.years, form_8879_years: rules.form8879Years, trash_days: rules.trashDays };
}

export async function retentionSettings(ctx: Pick<Context, "db">): Promise<RetentionSettings> {
  return settingsOf(await retentionRules(ctx.db));
}

export async function updateRetentionSettings(ctx: FirmContext, input: UpdateRetentionInput): Promise<RetentionSettings> {
  await ctx.db.transaction().execute(async (tx) => {
    await upsertFirmSetting(tx, RETENTION_YEARS_KEY, String(input.years_after_last_activity), ctx.now());
    await upsertFirmSetting(tx, FORM_8879_YEARS_KEY, String(input.form_8879_years), ctx.now());
    await recordSettingChange(tx, ctx, "retention", input);
  });
  ctx.logger.info({ retention: input }, "retention rules changed");
  return retentionSettings(ctx);
}

/** What goes within the next 30 days, one line per account and rule (held accounts too, marked), and the holds in place. */
export async function dueForDisposal(ctx: FirmContext): Promise<DueList> {
  const rules = await retentionRules(ctx.db);
  const now = ctx.now();
  const [due, holds, kept] = await Promise.all([
    listDueByForFirm(ctx.db, ctx.firmScope, rules, new Date(now.getTime() + DUE_WINDOW_DAYS * DAY_MS)),
    listLegalHolds(ctx.db, ctx.firmScope),
    listKeptWithoutPeople(ctx.db, ctx.firmScope),
  ]);
  const lines = new Map<string, DueList["items"][number]>();
  for (const doc of due) {
    const key = `${doc.account_id}:${doc.rule}`;
    const line = lines.get(key);
    if (line) {
      line.documents += 1;
      line.bytes += doc.file_size;
      if (doc.due_at < line.due_at) line.due_at = doc.due_at;
    } else {
      lines.set(key, {
        account_id: doc.account_id,
        account_name: doc.account_name,
        rule: doc.rule,
        due_at: doc.due_at,
        documents: 1,
        bytes: doc.file_size,
        last_activity_at: doc.last_activity_at,
        held: doc.held,
      });
    }
  }
  return {
    window_days: DUE_WINDOW_DAYS,
    items: [...lines.values()].sort((a, b) => a.due_at.getTime() - b.due_at.getTime() || a.account_name.localeCompare(b.account_name)),
    holds: holds.map((h) => ({
      account_id: h.account_id,
      account_name: h.account_name,
      reason: h.reason,
      placed_at: h.placed_at,
      placed_by_name: h.placed_by_name,
    })),
    kept,
  };
}

/** Places a legal hold on an account the caller reaches (or changes its reason), in the trail. */
export async function placeLegalHold(ctx: FirmContext, input: { id: string; reason: string }): Promise<AccountLegalHold> {
  await ctx.db.transaction().execute(async (tx) => {
    const account = await findLegalHold(tx, ctx.firmScope, input.id);
    if (!account) throw new TRPCError({ code: "NOT_FOUND", message: ACCOUNT_NOT_FOUND });
    const before = await upsertLegalHold(tx, input.id, input.reason, ctx.user.id, ctx.now());
    await recordActivity(tx, ctx, {
      action: "account.legal_hold",
      client: accountClient({ id: input.id, name: account.account_name }),
      target: { type: "account", id: input.id },
      detail: before === undefined ? { reason: input.reason } : { reason: input.reason, previous_reason: before },
    });
  });
  ctx.logger.warn({ accountId: input.id, by: ctx.user.id }, "legal hold placed: nothing of the account is disposed of");
  return accountLegalHold(ctx, input.id);
}

/** Lifts the hold; an account without one answers as it is (nothing in the trail). */
export async function clearLegalHold(ctx: FirmContext, input: { id: string }): Promise<AccountLegalHold> {
  await ctx.db.transaction().execute(async (tx) => {
    const account = await findLegalHold(tx, ctx.firmScope, input.id);
    if (!account) throw new TRPCError({ code: "NOT_FOUND", message: ACCOUNT_NOT_FOUND });
    const removed = await deleteLegalHold(tx, input.id);
    if (!removed) return;
    await recordActivity(tx, ctx, {
      action: "account.legal_hold_clear",
      client: accountClient({ id: input.id, name: account.account_name }),
      target: { type: "account", id: input.id },
      detail: { reason: removed.reason },
    });
  });
  ctx.logger.info({ accountId: input.id, by: ctx.user.id }, "legal hold lifted");
  return accountLegalHold(ctx, input.id);
}

/** An account's hold, or null; an account the caller does not reach is not found. */
export function legalHoldOf(ctx: FirmContext, input: { id: string }): Promise<AccountLegalHold> {
  return accountLegalHold(ctx, input.id);
}

async function accountLegalHold(ctx: FirmContext, accountId: string): Promise<AccountLegalHold> {
  const row = await findLegalHold(ctx.db, ctx.firmScope, accountId);
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: ACCOUNT_NOT_FOUND });
  return {
    account_id: row.account_id,
    hold: row.reason !== null && row.placed_at !== null ? { reason: row.reason, placed_at: row.placed_at, placed_by_name: row.placed_by_name } : null,
  };
}

export type DisposalResult = { accounts: number; documents: number; bytes: number };
type DisposalDeps = Pick<Context, "db" | "storage" | "logger" | "now">;

/**
 * Disposes of every document past its retention at the clock's now (`trashOnly`: only what the trash
 * rule makes due, the hourly purge's part): accounts under a legal hold are skipped, locked
 * documents are not due yet. Safe to run again and on several instances at once.
 */
export async function disposeDue(deps: DisposalDeps, opts: { trashOnly?: boolean } = {}): Promise<DisposalResult> {
  const now = deps.now();
  const rules = await retentionRules(deps.db);
  const accounts = opts.trashOnly ? await accountsWithExpiredTrash(deps.db, rules, now) : await accountsDueBy(deps.db, rules, now);
  const total: DisposalResult = { accounts: 0, documents: 0, bytes: 0 };
  for (const accountId of accounts) {
    if (total.documents >= DISPOSAL_MAX_PER_RUN) break;
    const done = await disposeAccount(deps, rules, accountId, now, opts.trashOnly === true);
    if (done.documents > 0) total.accounts += 1;
    total.documents += done.documents;
    total.bytes += done.bytes;
  }
  return total;
}

async function disposeAccount(deps: DisposalDeps, rules: RetentionRules, accountId: string, now: Date, trashOnly: boolean) {
  const done = { documents: 0, bytes: 0 };
  for (;;) {
    const batch = await deps.db.transaction().execute(async (tx) => {
      const account = await lockAccountForDisposal(tx, accountId);
      if (!account || account.held) return null;
      const due = await dueDocumentsOf(tx, rules, accountId, now, DISPOSAL_BATCH, trashOnly);
      const deleted = await deleteDocumentRows(tx, due, rules, now);
      const gone = new Set(deleted.map((d) => d.id));
      const disposed = due.filter((d) => gone.has(d.id));
      for (const rule of ["inactivity", "trash"] as const) {
        const ofRule = disposed.filter((d) => d.rule === rule);
        if (ofRule.length > 0) await recordReceipt(tx, { id: accountId, name: account.name }, rule, ofRule, rules, now);
      }
      return { disposed, full: due.length === DISPOSAL_BATCH && disposed.length > 0 };
    });
    if (!batch) break;
    await removeStoredObjects(deps.storage, deps.logger, batch.disposed);
    done.documents += batch.disposed.length;
    done.bytes += batch.disposed.reduce((sum, d) => sum + d.file_size, 0);
    if (!batch.full) break;
  }
  if (done.documents > 0) deps.logger.info({ accountId, ...done }, "documents disposed of under the retention rules");
  return done;
}

/** The disposal receipt: what went (each document's id, name and size), how many bytes, and under which rule, by the system. */
async function recordReceipt(
  db: Db,
  account: { id: string; name: string },
  rule: DisposalRule,
  documents: DisposalCandidate[],
  rules: RetentionRules,
  now: Date,
): Promise<void> {
  const bytes = documents.reduce((sum, d) => sum + d.file_size, 0);
  await recordActivity(
    db,
    { now: () => now },
    {
      action: "retention.dispose",
      client: accountClient(account),
      actor: { id: null, role: "system", label: "system" },
      detail: {
        rule,
        ...(rule === "inactivity"
          ? { years_after_last_activity: rules.years, last_activity_at: documents[0]!.last_activity_at.toISOString() }
          : { trash_days: rules.trashDays }),
        documents: documents.length,
        bytes,
        files: documents.map((d) => ({ id: d.id, filename: d.original_filename, bytes: d.file_size })),
      },
    },
  );
}
