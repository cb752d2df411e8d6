import { z } from "zod";
import { appointmentOutput } from "../appointments/schemas.ts";
import { userOutput } from "../auth/schemas.ts";
import { documentOutput, storageUsageOutput, trashedDocumentOutput } from "../documents/schemas.ts";
import { idSchema } from "../shared-schemas.ts";

/** Server-side paging for admin lists (docs/decisions.md, Admin lists). */
export const listPageInput = z.object({
  q: z.string().trim().max(200, "Search text must be at most 200 characters").optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.coerce.number().int().min(0).max(10_000_000).optional(),
});
export type ListPageInput = z.infer<typeof listPageInput>;

/**
 * One page of an admin list: its items, the cursor of the next page (null on the last), the total.
 * `totalCapped`: the total is a lower bound (a search matched more than was counted: "10,000+").
 */
export function pageOutput<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.number().nullable(), total: z.number(), totalCapped: z.boolean().optional() });
}
export type Page<T> = { items: T[]; nextCursor: number | null; total: number; totalCapped?: boolean };

/** 10 TB, far above any client's need, and within the column's integer. */
const MAX_QUOTA_MB = 10 * 1024 * 1024;
export const setUserQuotaInput = z.object({
  id: idSchema,
  /** MB of 1024 * 1024 bytes; null returns the client to the firm's default. */
  quota_mb: z
    .number({ error: "Quota must be a number of megabytes" })
    .int("Quota must be a whole number of megabytes")
    .min(1, "Quota must be at least 1 MB")
    .max(MAX_QUOTA_MB, "Quota must be at most 10 TB")
    .nullable(),
});
export const consultationIdInput = z.object({ id: idSchema, handled: z.boolean().default(true) });
export const appointmentListInput = listPageInput.extend({ user_id: idSchema.optional(), account_id: idSchema.optional() });

/** A client's storage: bytes used, their quota in bytes, and the quota the firm set (null: the default). */
const userStorageOutput = storageUsageOutput.extend({ quota_mb: z.number().nullable() });
export type UserStorage = z.infer<typeof userStorageOutput>;
export const userQuotaOutput = userStorageOutput.extend({ id: z.string() });
export type UserQuota = z.infer<typeof userQuotaOutput>;

export const adminUserOutput = userOutput.extend(userStorageOutput.shape);
export type AdminUser = z.infer<typeof adminUserOutput>;

const owner = { user_id: z.string(), user_name: z.string(), user_email: z.string() };
export const adminDocumentOutput = documentOutput.extend(owner);
export type AdminDocument = z.infer<typeof adminDocumentOutput>;
export const adminTrashedDocumentOutput = trashedDocumentOutput.extend(owner);
export type AdminTrashedDocument = z.infer<typeof adminTrashedDocumentOutput>;
export const adminAppointmentOutput = appointmentOutput.extend(owner);
export type AdminAppointment = z.infer<typeof adminAppointmentOutput>;

export const adminStatsOutput = z.object({
  stats: z.object({ total_users: z.number(), total_documents: z.number(), total_appointments: z.number(), total_folders: z.number() }),
  recent_users: z.array(userOutput),
  /** Absent for a staff member without the `documents` right. */
  recent_documents: z.array(adminDocumentOutput).optional(),
});
export type AdminStats = z.infer<typeof adminStatsOutput>;
