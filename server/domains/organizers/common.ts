// What the firm's side (firm-service.ts), the client's (service.ts) and the exports (exports.ts) of
// organizers share: an answer read, a sealed one opened, and an organizer's documents by question.
import type { Db } from "../../db/types.ts";
import type { AuthedContext } from "../../trpc/context.ts";
import { type AnswerRow, listOrganizerDocuments } from "./queries.ts";
import { openAnswer } from "./sealing.ts";

export type SealingContext = Pick<AuthedContext, "config" | "logger">;

export function answerBase(answer: AnswerRow) {
  return {
    question_id: answer.question_id,
    from_last_year: answer.from_last_year,
    reviewed: answer.reviewed_at !== null,
    version: answer.version,
    updated_at: answer.updated_at,
  };
}

/**
 * An answer's value, a sealed one opened. One that does not open (TOTP_ENCRYPTION_KEY unset or
 * changed since) reads as no answer, logged, rather than failing every read of the organizer.
 */
export function answerValue(ctx: SealingContext, answer: Pick<AnswerRow, "value" | "sealed" | "question_id">): unknown {
  if (answer.sealed === null) return answer.value;
  try {
    return openAnswer(answer.sealed, ctx.config.totpEncryptionKey);
  } catch (err) {
    ctx.logger.error({ err, question_id: answer.question_id }, "a sealed organizer answer does not open");
    return null;
  }
}

export async function documentsByQuestion(db: Db, organizerId: string) {
  const byQuestion: Record<string, Array<{ id: string; original_filename: string; file_size: number; upload_date: Date }>> = {};
  for (const { organizer_question_id, ...document } of await listOrganizerDocuments(db, organizerId)) {
    if (!organizer_question_id) continue;
    (byQuestion[organizer_question_id] ??= []).push(document);
  }
  return byQuestion;
}
