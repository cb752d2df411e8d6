import { TRPCError } from "@trpc/server";
import type { Db } from "../../db/types.ts";
import type { AuthedContext } from "../../trpc/context.ts";
import type { FirmScope } from "../../trpc/firm-scope.ts";
import {
  accountExistsForFirm,
  accountForPerson,
  findReachableAccount,
  listReachableAccounts,
  notifyRecipientsForFirm,
  setSessionAccount,
} from "./queries.ts";
import { accountWithoutPersonForFirm } from "./firm-queries.ts";
import type { CurrentAccount } from "./schemas.ts";

export const ACCOUNT_NOT_FOUND = "Account not found";

export function listMyAccounts(ctx: AuthedContext): Promise<CurrentAccount[]> {
  return listReachableAccounts(ctx.db, ctx.user.id);
}

/** Makes one of the caller's accounts the session's current one; any other id is a 404. */
export async function switchAccount(ctx: AuthedContext, input: { account_id: string }): Promise<CurrentAccount> {
  const account = await findReachableAccount(ctx.db, ctx.user.id, input.account_id);
  if (!account) throw new TRPCError({ code: "NOT_FOUND", message: ACCOUNT_NOT_FOUND });
  await setSessionAccount(ctx.db, ctx.session.id, account.id);
  return account;
}

/**
 * Whom an email about an account goes to (docs/decisions.md, "Client accounts (issue 32)"): every
 * contact with notify, in one message (they share the account, so each may see the others'
 * addresses), greeting the first of them (an owner first). Undefined when nobody is to be told.
 */
export async function accountMailRecipients(
  db: Db,
  accountId: string,
): Promise<{ id: string; name: string; email: string; email_verified_at: Date | null; to: string } | undefined> {
  const people = await notifyRecipientsForFirm(db, accountId);
  const first = people[0];
  if (!first) return undefined;
  return { ...first, to: people.map((p) => p.email).join(", ") };
}

export const SEVERAL_ACCOUNTS = "This person belongs to several accounts: use account_id";

/**
 * The account a firm path acts on: `account_id` when given, else the person `user_id` resolved by
 * accountForPerson (404 for none, 409 for several), both within the asker's reach (firm-scope.ts).
 * The message of a 404 is the path's own.
 */
export async function accountForFirm(db: Db, scope: FirmScope, who: { account_id?: string; user_id?: string }, notFound: string): Promise<string> {
  if (who.account_id) {
    if (!(await accountExistsForFirm(db, scope, who.account_id))) throw new TRPCError({ code: "NOT_FOUND", message: notFound });
    return who.account_id;
  }
  const found = who.user_id ? await accountForPerson(db, scope, who.user_id) : "none";
  // An account nobody has joined yet has no person to name it by: its own id stands in for one,
  // within the asker's reach like any other.
  if (found === "none" && who.user_id && (await accountWithoutPersonForFirm(db, who.user_id)) && (await accountExistsForFirm(db, scope, who.user_id)))
    return who.user_id;
  if (found === "none") throw new TRPCError({ code: "NOT_FOUND", message: notFound });
  if (found === "several") throw new TRPCError({ code: "CONFLICT", message: SEVERAL_ACCOUNTS });
  return found.id;
}
