// Schemas more than one domain uses: ids, the appointment time windows that both consultation
// requests and appointment requests name, and the plain success answer. Importable by the web
// client (zod only).
import { z } from "zod";

/** Every id we hand out is a UUID; anything else names nothing, so it reads "Not found". */
export const idSchema = z.uuid("Not found");
export const idInput = z.object({ id: idSchema });

export const PREFERRED_TIMES = ["morning", "afternoon", "evening"] as const;
export const preferredTimeSchema = z.enum(PREFERRED_TIMES, { error: "Preferred time must be morning, afternoon or evening" });

export const successOutput = z.object({ success: z.literal(true) });
export type Success = z.infer<typeof successOutput>;
