// Recording the activity trail. Each event is written with the database handle of the change it
// describes (pass the transaction when there is one), so an event exists exactly when its change
// does. Rows are never changed or removed afterwards (a trigger refuses it; see the migration
// 2026-11-23T2000_activity_trail and docs/decisions.md, "Activity trail").
import type { Db } from "../../db/types.ts";

/** Every kind of event the trail records. The client's own view shows all of them for their account but FIRM_PRIVATE_ACTIONS. */
export const ACTIVITY_ACTIONS = [
  "auth.sign_in",
  "auth.sign_in_failed",
  "auth.sign_out",
  "auth.password_reset",
  "auth.password_change",
  "document.upload",
  "document.download",
  "document.preview",
  "document.rename",
  "document.move",
  "document.trash",
  "document.restore",
  "document.delete",
  "document.delete_held",
  "folder.create",
  "folder.update",
  "folder.delete",
  "request.create",
  "request.update",
  "request.item_update",
  "request.item_remove",
  "request_template.create",
  "request_template.update",
  "request_template.delete",
  "organizer.send",
  "organizer.submit",
  "organizer.unsubmit",
  "organizer.reopen",
  "organizer_template.create",
  "organizer_template.update",
  "organizer_template.delete",
  "invitation.create",
  "invitation.resend",
  "invitation.revoke",
  "invitation.accept",
  "message.send",
  "site.update",
  "settings.update",
  "staff.invite",
  "staff.update",
  "staff.transfer_ownership",
  "account.assign",
  "user.delete",
  "account.create",
  "account.update",
  "account.contact_add",
  "account.contact_update",
  "account.contact_remove",
  "account.claim_detach",
  "account.import",
  "account.note_add",
  "account.note_update",
  "account.note_delete",
  "account.export",
  "security.end_all_sessions",
  "security.access_log",
  "account.legal_hold",
  "account.legal_hold_clear",
  "retention.dispose",
  "signature.create",
  "signature.view",
  "signature.consent",
  "signature.verify",
  "signature.sign",
  "signature.decline",
  "signature.void",
  "signature.remind",
  "signature.in_person",
  "signature.complete",
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** The firm's own events about an account that its client's trail never shows (the firm's private notes). */
export const FIRM_PRIVATE_ACTIONS: readonly ActivityAction[] = [
  "account.note_add",
  "account.note_update",
  "account.note_delete",
  // A hold is often about a dispute with the client: not theirs to read.
  "account.legal_hold",
  "account.legal_hold_clear",
  // Kept under a hold although its client deleted it forever: the hold is not theirs to know of.
  "document.delete_held",
  // A claimed login left the account for the firm's review: the firm's to judge, not the account's other people's.
  "account.claim_detach",
];

/** Who is acting, as the request context knows it (a signed-in user, or nobody yet). */
export type ActivityActorContext = {
  user?: { id: string; username: string | null; email: string; is_admin: boolean } | null;
  ip?: string;
  userAgent?: string | null;
  now(): Date;
};

/** The client account an event concerns, as the trail names it (the row outlives it). */
export type ActivityClient = { id: string; label: string };

/** A person's own events (sign-ins, password changes, their deletion): under their id, by their username or email. */
export function personClient(user: { id: string; username: string | null; email: string }): ActivityClient {
  return { id: user.id, label: accountLabel(user) };
}

/** An account's events: under its id, by its name. */
export function accountClient(account: { id: string; name: string }): ActivityClient {
  return { id: account.id, label: account.name };
}

type ActivityEvent = {
  action: ActivityAction;
  /** The client account the event concerns (for a client acting on its data, ctx.account); null for the firm's own. */
  client: ActivityClient | null;
  target?: { type: string; id: string };
  /** What a reader needs to understand the event later (names, folders, changes); never a secret or a document's contents. */
  detail?: Record<string, unknown>;
  /** Overrides the actor taken from the context: a failed sign-in names the account tried, and the system acts in jobs. */
  actor?: { id: string | null; role: "client" | "admin" | "system"; label: string };
};

export function accountLabel(user: { username: string | null; email: string }): string {
  return user.username ?? user.email;
}

export async function recordActivity(db: Db, ctx: ActivityActorContext, event: ActivityEvent): Promise<void> {
  const actor = event.actor ?? actorOf(ctx);
  await db
    .insertInto("activity_events")
    .values({
      occurred_at: ctx.now(),
      account_id: event.client?.id ?? null,
      client_label: event.client?.label ?? null,
      actor_id: actor.id,
      actor_role: actor.role,
      actor_label: actor.label,
      action: event.action,
      target_type: event.target?.type ?? null,
      target_id: event.target?.id ?? null,
      detail: JSON.stringify(event.detail ?? {}),
      ip: ctx.ip && ctx.ip !== "unknown" ? ctx.ip : null,
      user_agent: ctx.userAgent ?? null,
    })
    .execute();
}

function actorOf(ctx: ActivityActorContext): NonNullable<ActivityEvent["actor"]> {
  if (!ctx.user) return { id: null, role: "system", label: "system" };
  return { id: ctx.user.id, role: ctx.user.is_admin ? "admin" : "client", label: accountLabel(ctx.user) };
}

/** A change of a firm setting (registration, two-factor rules, names in emails and the trail), naming who made it. */
export async function recordSettingChange(db: Db, ctx: ActivityActorContext, setting: string, value: unknown): Promise<void> {
  await recordActivity(db, ctx, { action: "settings.update", client: null, detail: { setting, value } });
}
