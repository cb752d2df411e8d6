// The firm's side of client accounts (docs/decisions.md, "Client accounts (issue 32)"): accounts
// made before anyone joins them, their people (a new person is invited with the invitations'
// emailed link; a client who already proved the address is added at once and told by email when
// the asker reaches every account they are in, else invited to join: planPeople), and the rule
// that an account with people keeps an owner. Every change, its mail jobs and its
// activity entry are written in one transaction.
import { TRPCError } from "@trpc/server";
import type { Db, HouseholdRole } from "../../db/types.ts";
import type { FirmContext } from "../../trpc/context.ts";
import { beyondReach, type FirmScope } from "../../trpc/firm-scope.ts";
import { accountClient, recordActivity } from "../activity/record.ts";
import type { Page } from "../admin/schemas.ts";
import { handOverPreparedWork, preparedWorkOf } from "../invitations/queries.ts";
import { listPage } from "../list-page.ts";
import { signedRecordsKeptUntil } from "../retention/queries.ts";
import { addAccountAssignee } from "../staff/queries.ts";
import {
  accountPageForFirm,
  contactCountsForFirm,
  contactsForFirm,
  deleteContactForFirm,
  emailsOfUsersForFirm,
  findAccountForFirm,
  findContactForFirm,
  insertAccountForFirm,
  insertContactForFirm,
  insertContactInvitationForFirm,
  lockAccountForFirm,
  openInvitationCountForFirm,
  openInvitationsByEmailForFirm,
  revokeInvitationForFirm,
  updateAccountForFirm,
  updateContactForFirm,
  usersByEmailForFirm,
  clearHouseholdRolesForFirm,
} from "./firm-queries.ts";
import type { AddContactInput, FirmAccount, UpdateContactInput } from "./firm-schemas.ts";
import type { CurrentAccount } from "./schemas.ts";
import { ACCOUNT_NOT_FOUND, assertHouseholdRole } from "./service.ts";

const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const CONTACT_NOT_FOUND = "Contact not found";
export const KEEP_AN_OWNER = "An account with people keeps at least one owner: make another person its owner first";
export const ALREADY_A_CONTACT = "This person is already a contact of this account";
export const FIRM_ADDRESS = "This email belongs to a member of the firm";
export const ALREADY_INVITED = "This email already has a pending invitation: resend it instead";

type Kind = CurrentAccount["kind"];
type Role = CurrentAccount["role"];
type AccountRow = { id: string; name: string; kind: Kind; created_at: Date; claim_review_at: Date | null; claim_review_user_id: string | null };

async function withContacts(db: Db, rows: AccountRow[]): Promise<FirmAccount[]> {
  const ids = rows.map((r) => r.id);
  const [contacts, kept, claimed] = await Promise.all([
    contactsForFirm(db, ids),
    signedRecordsKeptUntil(db, ids),
    emailsOfUsersForFirm(db, [...new Set(rows.flatMap((r) => (r.claim_review_user_id ? [r.claim_review_user_id] : [])))]),
  ]);
  return rows.map(({ claim_review_at, claim_review_user_id, ...row }) => ({
    ...row,
    contacts: contacts.filter((c) => c.account_id === row.id).map(({ account_id: _account, ...c }) => c),
    claim_review: claim_review_at ? { since: claim_review_at, email: (claim_review_user_id && claimed.get(claim_review_user_id)) ?? null } : null,
    retained_until: kept.get(row.id) ?? null,
  }));
}

export async function createAccount(ctx: FirmContext, input: { name: string; kind: Kind }): Promise<FirmAccount> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await insertAccountForFirm(tx, input);
    // A staff member who sees only assigned accounts is assigned the one they make, or it would vanish from their list.
    if (!ctx.firmScope.all) await addAccountAssignee(tx, row.id, ctx.user.id);
    await recordActivity(tx, ctx, {
      action: "account.create",
      client: accountClient(row),
      target: { type: "account", id: row.id },
      detail: { name: row.name, kind: row.kind },
    });
    return (await withContacts(tx, [row]))[0]!;
  });
}

export async function accountPage(ctx: FirmContext, input: { q?: string; limit: number; cursor?: number }): Promise<Page<FirmAccount>> {
  return listPage(input, async (w) => {
    const page = await accountPageForFirm(ctx.db, ctx.firmScope, w);
    return { items: await withContacts(ctx.db, page.items), total: page.total };
  });
}

export async function accountDetail(ctx: FirmContext, input: { id: string }): Promise<FirmAccount> {
  const row = await findAccountForFirm(ctx.db, ctx.firmScope, input.id);
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: ACCOUNT_NOT_FOUND });
  return (await withContacts(ctx.db, [row]))[0]!;
}

export async function updateAccount(
  ctx: FirmContext,
  input: { id: string; name?: string; kind?: Kind; claim_reviewed?: true },
): Promise<FirmAccount> {
  await ctx.db.transaction().execute(async (tx) => {
    const before = await lockAccountForFirm(tx, ctx.firmScope, input.id);
    if (!before) throw new TRPCError({ code: "NOT_FOUND", message: ACCOUNT_NOT_FOUND });
    const { id, claim_reviewed, ...changes } = input;
    // Reviewed: the mark of a claimed login's leaving goes (docs/security.md, Round 4).
    const after = (await updateAccountForFirm(tx, id, claim_reviewed ? { ...changes, claim_review_at: null, claim_review_user_id: null } : changes))!;
    // Only a household's people have a household role (docs/decisions.md, "A household person's role").
    if (after.kind !== "household") await clearHouseholdRolesForFirm(tx, id);
    await recordActivity(tx, ctx, {
      action: "account.update",
      client: accountClient(after),
      target: { type: "account", id },
      detail: {
        from: { name: before.name, kind: before.kind },
        to: { name: after.name, kind: after.kind },
        ...(claim_reviewed && before.claim_review_at ? { claim_reviewed: true } : {}),
      },
    });
  });
  return accountDetail(ctx, input);
}

/**
 * What becomes of an address added to an account: a refusal, a link to a client who proved it, or
 * an invitation (`proven`: to a client who proved the address, who joins by accepting it signed in).
 */
export type PersonPlan =
  { action: "link"; userId: string } | { action: "invite"; replaces: string | null; proven: string | null } | { refused: string };

/**
 * Decides for each address (lower case) at once, so an import asks the database three times, not
 * three times a row. An address with an unproven account is invited: accepting claims that account,
 * as an invitation does (docs/security.md, Round 3), so a stranger who registered someone's address
 * never gets in. A proven address is linked at once only when the asker reaches every account its
 * person is in (docs/security.md, Round 4): otherwise the person is invited too, and joins only by
 * accepting, so nobody's accounts are tied to one the asker reaches (and then deleted with the
 * person) without them.
 */
export async function planPeople(tx: Db, scope: FirmScope, emails: string[], now: Date, accountId: string | null): Promise<Map<string, PersonPlan>> {
  const [users, invitations] = await Promise.all([usersByEmailForFirm(tx, emails), openInvitationsByEmailForFirm(tx, emails)]);
  const proven = users.filter((u) => u.email_verified_at && !u.is_admin).map((u) => u.id);
  const beyond = new Set((await beyondReach(tx, scope, { people: proven })).people);
  const plans = new Map<string, PersonPlan>();
  for (const email of emails.map((e) => e.toLowerCase())) {
    const user = users.find((u) => u.email.toLowerCase() === email);
    // One open invitation per address per account (`accountId` null: accounts this import makes):
    // an invitation to another account does not stand in the way; one to the firm's team does.
    const open = invitations.find((i) => i.email.toLowerCase() === email && (i.staff_role !== null || i.account_id === accountId));
    if (user?.is_admin) plans.set(email, { refused: FIRM_ADDRESS });
    else if (user?.email_verified_at && !beyond.has(user.id)) plans.set(email, { action: "link", userId: user.id });
    else if (open && (open.staff_role !== null || open.expires_at.getTime() > now.getTime())) plans.set(email, { refused: ALREADY_INVITED });
    // An expired invitation gives way to the new one (one open invitation per address).
    else plans.set(email, { action: "invite", replaces: open?.id ?? null, proven: user?.email_verified_at ? user.id : null });
  }
  return plans;
}

/** Adds one person to a locked account as planned: their invitation and its mail, or the contact and its notice. */
export async function addPerson(
  tx: Db,
  ctx: FirmContext,
  account: { id: string; name: string },
  person: { name: string; email: string; role: Role; household_role?: HouseholdRole | null; notify: boolean },
  plan: Exclude<PersonPlan, { refused: string }>,
): Promise<void> {
  const now = ctx.now();
  const householdRole = person.household_role ?? null;
  if (plan.action === "link") {
    if (await findContactForFirm(tx, account.id, plan.userId)) throw new TRPCError({ code: "CONFLICT", message: ALREADY_A_CONTACT });
    await insertContactForFirm(tx, {
      account_id: account.id,
      user_id: plan.userId,
      role: person.role,
      household_role: householdRole,
      notify: person.notify,
    });
    await ctx.jobs.send("email", { kind: "account-contact-added", accountId: account.id, userId: plan.userId }, { tx });
  } else {
    if (plan.proven && (await findContactForFirm(tx, account.id, plan.proven))) throw new TRPCError({ code: "CONFLICT", message: ALREADY_A_CONTACT });
    // The expired client invitation it replaces (planPeople refuses a staff one) hands over the
    // signer slots held for the person (docs/decisions.md, "Prepared for invited people").
    const prepared = plan.replaces ? await preparedWorkOf(tx, { id: plan.replaces, staff_role: null }) : null;
    if (plan.replaces) await revokeInvitationForFirm(tx, plan.replaces, now);
    const invitation = await insertContactInvitationForFirm(tx, {
      account_id: account.id,
      name: person.name,
      email: person.email,
      role: person.role,
      household_role: householdRole,
      notify: person.notify,
      created_by: ctx.user.id,
      created_at: now,
      expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
    });
    if (prepared) await handOverPreparedWork(tx, { id: invitation.id, staff_role: null }, prepared);
    // Someone who already uses the portal gets the mail that asks them to join, signed in.
    const kind = plan.proven ? "account-invitation" : "invitation";
    await ctx.jobs.send("email", { kind, invitationId: invitation.id, expiresAt: invitation.expires_at.toISOString() }, { tx });
  }
  await recordActivity(tx, ctx, {
    action: "account.contact_add",
    client: accountClient(account),
    target: plan.action === "link" ? { type: "user", id: plan.userId } : { type: "account", id: account.id },
    detail: {
      name: person.name,
      email: person.email,
      role: person.role,
      ...(householdRole ? { household_role: householdRole } : {}),
      how: plan.action,
    },
  });
}

export async function addContact(ctx: FirmContext, input: AddContactInput): Promise<FirmAccount> {
  try {
    await ctx.db.transaction().execute(async (tx) => {
      const account = await lockAccountForFirm(tx, ctx.firmScope, input.id);
      if (!account) throw new TRPCError({ code: "NOT_FOUND", message: ACCOUNT_NOT_FOUND });
      assertHouseholdRole(account, input.household_role);
      const plan = (await planPeople(tx, ctx.firmScope, [input.email], ctx.now(), account.id)).get(input.email.toLowerCase())!;
      if ("refused" in plan) throw new TRPCError({ code: "CONFLICT", message: plan.refused });
      // The first person of an account owns it unless the firm says otherwise.
      const empty = (await contactCountsForFirm(tx, account.id)).people === 0 && (await openInvitationCountForFirm(tx, account.id)) === 0;
      const role = input.role ?? (empty ? "owner" : "member");
      await addPerson(
        tx,
        ctx,
        account,
        { name: input.name, email: input.email, role, household_role: input.household_role, notify: input.notify },
        plan,
      );
    });
  } catch (err) {
    // Two invitations of one address at once: the open-invitation index decides.
    if ((err as { code?: string }).code === "23505") throw new TRPCError({ code: "CONFLICT", message: ALREADY_INVITED });
    throw err;
  }
  return accountDetail(ctx, input);
}

export async function updateContact(ctx: FirmContext, input: UpdateContactInput): Promise<FirmAccount> {
  await ctx.db.transaction().execute(async (tx) => {
    const account = await lockAccountForFirm(tx, ctx.firmScope, input.id);
    const before = account && (await findContactForFirm(tx, account.id, input.userId));
    if (!account || !before) throw new TRPCError({ code: "NOT_FOUND", message: CONTACT_NOT_FOUND });
    assertHouseholdRole(account, input.household_role);
    const { id, userId, ...changes } = input;
    await updateContactForFirm(tx, id, userId, changes);
    if ((await contactCountsForFirm(tx, id)).owners === 0) throw new TRPCError({ code: "CONFLICT", message: KEEP_AN_OWNER });
    await recordActivity(tx, ctx, {
      action: "account.contact_update",
      client: accountClient(account),
      target: { type: "user", id: userId },
      detail: { name: before.name, email: before.email, changes },
    });
  });
  return accountDetail(ctx, input);
}

/** Ends the person's access at once: the core's trigger closes their streams, and their next request finds nothing. */
export async function removeContact(ctx: FirmContext, input: { id: string; userId: string }): Promise<FirmAccount> {
  await ctx.db.transaction().execute(async (tx) => {
    const account = await lockAccountForFirm(tx, ctx.firmScope, input.id);
    const before = account && (await findContactForFirm(tx, account.id, input.userId));
    if (!account || !before) throw new TRPCError({ code: "NOT_FOUND", message: CONTACT_NOT_FOUND });
    await deleteContactForFirm(tx, input.id, input.userId);
    const left = await contactCountsForFirm(tx, input.id);
    if (left.people > 0 && left.owners === 0) throw new TRPCError({ code: "CONFLICT", message: KEEP_AN_OWNER });
    await recordActivity(tx, ctx, {
      action: "account.contact_remove",
      client: accountClient(account),
      target: { type: "user", id: input.userId },
      detail: { name: before.name, email: before.email, role: before.role },
    });
  });
  return accountDetail(ctx, input);
}
