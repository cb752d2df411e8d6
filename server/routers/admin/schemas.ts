import { z } from "zod";
import { idSchema } from "../folders/schemas.ts";

/** Server-side paging for admin lists (decisions.md "Admin lists at scale"). */
export const listPageInput = z.object({
  q: z.string().trim().max(200, "Search text must be at most 200 characters").optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.coerce.number().int().min(0).max(10_000_000).optional(),
});
export type ListPageInput = z.infer<typeof listPageInput>;

export type Page<T> = { items: T[]; nextCursor: number | null; total: number };

export const userIdInput = z.object({ id: idSchema });
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
export const documentIdInput = z.object({ id: idSchema });
export const consultationIdInput = z.object({ id: idSchema, handled: z.boolean().default(true) });
export const appointmentListInput = listPageInput.extend({ user_id: idSchema.optional() });
