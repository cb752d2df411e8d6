import { TRPCError } from "@trpc/server";
import type { Db, HouseholdRole } from "../../db/types.ts";
import { greeting } from "../auth/mail.ts";
import type { AuthedContext } from "../../trpc/context.ts";
import { accountClient, type ActivityActorContext, recordActivity } from "../activity/record.ts";
import type { FirmScope } from "../../trpc/firm-scope.ts";
import {
  accountExistsForFirm,
  accountForPerson,
  createAccountWithOwner,
  findReachableAccount,
  leaveAccountsForReview,
  listReachableAccounts,
  lockAccountsOfLogin,
  notifyRecipientsForFirm,
  setSessionAccount,
} from "./queries.ts";
import { accountIdExists } from "./firm-queries.ts";
import { type CurrentAccount, HOUSEHOLD_ROLE_ONLY } from "./schemas.ts";

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
 * addresses). `hello` greets all of them by name ("Hello Maria Garcia and Jose Garcia,"), or
 * nobody by name while any of their addresses is unproven (greeting()); the other fields are the
 * first of them (an owner first). Undefined when nobody is to be told.
 */
export async function accountMailRecipients(
  db: Db,
  accountId: string,
): Promise<{ id: string; name: string; email: string; email_verified_at: Date | null; to: string; hello: string } | undefined> {
  const people = await notifyRecipientsForFirm(db, accountId);
  const first = people[0];
  if (!first) return undefined;
  const names = people.map((p) => p.name);
  const together = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  const hello = greeting({ name: together, email_verified: people.every((p) => p.email_verified_at !== null) });
  return { ...first, to: people.map((p) => p.email).join(", "), hello };
}

export const SEVERAL_ACCOUNTS = "This person belongs to several accounts: use account_id";

/**
 * The account a firm path acts on (docs/decisions.md, "The firm's paths take the account"):
 * `account_id` when given; else the id the path or body names (`user_id`): an account's id names
 * that account (a migrated account shares its id with its person, so both readings agree), and a
 * person's id their account as accountForPerson decides (404 for none, 409 for several). Always
 * within the asker's reach (firm-scope.ts): outside it is the path's own 404.
 */
export async function accountForFirm(db: Db, scope: FirmScope, who: { account_id?: string; user_id?: string }, notFound: string): Promise<string> {
  const named = who.account_id ?? (who.user_id && (await accountIdExists(db, who.user_id)) ? who.user_id : undefined);
  if (named) {
    if (!(await accountExistsForFirm(db, scope, named))) throw new TRPCError({ code: "NOT_FOUND", message: notFound });
    return named;
  }
  const found = who.user_id ? await accountForPerson(db, scope, who.user_id) : "none";
  if (found === "none") throw new TRPCError({ code: "NOT_FOUND", message: notFound });
  if (found === "several") throw new TRPCError({ code: "CONFLICT", message: SEVERAL_ACCOUNTS });
  return found.id;
}

/**
 * A proof of the mailbox (the firm's invitation, Google, a reset link) claimed a login whose address
 * was never proven (docs/security.md, Round 4): whoever registered it first may have made accounts
 * with it and brought others into them, and the owner must not inherit those. The login leaves every
 * account it made or joined before the proof; each stays, with its other people and invitations,
 * marked for the firm's review (claim_review_at), and the trail says so. `invited`: the proof accepts
 * the firm's invitation, which names the account the person belongs in, so every earlier account is
 * left. Without one (a reset, Google alone), an account the login is alone in (nobody else in it or
 * invited) stays theirs: nobody else can see into it once the earlier holder's credentials are void,
 * and it may be a real client's who never confirmed the address; if none stays, the person gets an
 * individual account of their own, as registration gives, named by the address.
 */
export async function leaveAccountsOnClaim(tx: Db, ctx: ActivityActorContext, user: { id: string; email: string }, invited: boolean): Promise<void> {
  const accounts = await lockAccountsOfLogin(tx, user.id);
  const leaving = invited ? accounts : accounts.filter((a) => a.shared);
  await leaveAccountsForReview(
    tx,
    user.id,
    leaving.map((a) => a.id),
    ctx.now(),
  );
  for (const account of leaving) {
    await recordActivity(tx, ctx, {
      action: "account.claim_detach",
      client: accountClient(account),
      target: { type: "user", id: user.id },
      detail: { email: user.email, how: invited ? "invitation" : "proof" },
      actor: { id: user.id, role: "client", label: user.email },
    });
  }
  if (!invited && leaving.length === accounts.length) await createAccountWithOwner(tx, { name: user.email, kind: "individual" }, user.id);
}

/** A household role is a household's (docs/decisions.md, "A household person's role"): 422 for another kind of account. */
export function assertHouseholdRole(account: { kind: string }, role: HouseholdRole | null | undefined): void {
  if (role && account.kind !== "household") throw new TRPCError({ code: "UNPROCESSABLE_CONTENT", message: HOUSEHOLD_ROLE_ONLY });
}
