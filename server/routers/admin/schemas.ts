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
export const documentIdInput = z.object({ id: idSchema });
export const consultationIdInput = z.object({ id: idSchema, handled: z.boolean().default(true) });
export const appointmentListInput = listPageInput.extend({ user_id: idSchema.optional() });
