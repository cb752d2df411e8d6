// The firm's private notes on a client account (issue 34; docs/decisions.md, "Private notes on a
// client's record"). Importable by the web client (zod only).
import { z } from "zod";
import { idSchema } from "../shared-schemas.ts";

export const NOTE_MAX_CHARS = 10_000;
export const NOTE_EMPTY = "Write the note first";
export const NOTE_NOT_FOUND = "Note not found";
export const NOT_YOUR_NOTE = "Only the note's author may change or delete it";

const noteBody = z
  .string({ error: NOTE_EMPTY })
  .trim()
  .min(1, NOTE_EMPTY)
  .max(NOTE_MAX_CHARS, `A note must be at most ${NOTE_MAX_CHARS.toLocaleString("en-US")} characters`)
  // The database refuses NUL in text; say so here rather than fail there.
  .refine((body) => !body.includes("\u0000"), "A note cannot contain NUL characters");

export const noteBodyInput = z.object({ body: noteBody });
export const accountNotesInput = z.object({ id: idSchema });
export const createNoteInput = noteBodyInput.extend({ id: idSchema });
export const noteIdInput = z.object({ id: idSchema, noteId: idSchema });
export const updateNoteInput = noteIdInput.extend({ body: noteBody });

export const accountNoteOutput = z.object({
  id: z.string(),
  account_id: z.string(),
  body: z.string(),
  /** Null once the author's user row is gone. */
  author_id: z.string().nullable(),
  /** The author's display name; "Former staff member" once they are gone. */
  author_name: z.string(),
  /** Whether the asker wrote it (and so may change or delete it). */
  mine: z.boolean(),
  created_at: z.date(),
  updated_at: z.date(),
});
export type AccountNote = z.infer<typeof accountNoteOutput>;
