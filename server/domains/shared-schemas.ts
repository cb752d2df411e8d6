// Schemas more than one domain uses: ids, the appointment time windows that both consultation
// requests and appointment requests name, and the plain success answer. Importable by the web
// client (zod only).
import { z } from "zod";

/** Every id we hand out is a UUID; anything else names nothing, so it reads "Not found". */
export const idSchema = z.uuid("Not found");
export const idInput = z.object({ id: idSchema });

const PREFERRED_TIMES = ["morning", "afternoon", "evening"] as const;
export const preferredTimeSchema = z.enum(PREFERRED_TIMES, { error: "Preferred time must be morning, afternoon or evening" });

export const successOutput = z.object({ success: z.literal(true) });

/** Control and format characters (direction marks and overrides, zero-width ones) and line separators. */
const INVISIBLE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * A name in NFC without control or invisible characters: the first step of every name we show or
 * hand out (filenames, ZIP entries). The bidirectional overrides disguise `evil\u202Efdp.exe` as
 * `evilexe.pdf`, and zero-width characters make two names look alike (docs/security.md, "Round 3
 * (issue 28)").
 */
export function stripInvisible(name: string): string {
  return name.normalize("NFC").replace(INVISIBLE_CHARACTERS, "");
}

/**
 * A name or title typed by someone: invisible characters removed, then trimmed (checks follow).
 * NUL alone stays: the database refuses it, and that refusal is the 422 every text field gives for
 * it (docs/security.md, "Round 3 (issue 28): booking limits, event streams, names").
 */
export function nameText(error: string) {
  return z
    .string({ error })
    .overwrite((name) => name.normalize("NFC").replace(INVISIBLE_CHARACTERS, (c) => (c === "\u0000" ? c : "")))
    .trim();
}

export type Success = z.infer<typeof successOutput>;
