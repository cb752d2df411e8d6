import type { Db } from "../../db/types.ts";

export const TAX_YEAR_KEY = "tax_year";
export const CHECKLIST_HIDDEN_KEY = "setup_checklist_hidden";

export async function findFirmSetting(db: Db, key: string): Promise<string | undefined> {
  return (await db.selectFrom("firm_settings").select("value").where("key", "=", key).executeTakeFirst())?.value;
}

export async function upsertFirmSetting(db: Db, key: string, value: string, now: Date): Promise<void> {
  await db
    .insertInto("firm_settings")
    .values({ key, value, updated_at: now })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
    .execute();
}

/** Whether clients can book: a meeting type still offered. */
export async function hasMeetingType(db: Db): Promise<boolean> {
  return (await db.selectFrom("meeting_types").select("id").where("deleted_at", "is", null).limit(1).executeTakeFirst()) !== undefined;
}

/** Whether the firm has reached its clients: an invitation sent, or a client account (however it was made). */
export async function hasInvitationOrClient(db: Db): Promise<boolean> {
  const [invitation, client] = await Promise.all([
    db.selectFrom("invitations").select("id").limit(1).executeTakeFirst(),
    db.selectFrom("users").select("id").where("is_admin", "=", false).limit(1).executeTakeFirst(),
  ]);
  return invitation !== undefined || client !== undefined;
}
