import { TRASH_RETENTION_DAYS } from "@server/domains/documents/schemas.ts";

/**
 * The specification's message after a document's deletion, which moves it to the trash
 * (docs/decisions.md, "Links, reach and the deletion's words").
 */
export const DOCUMENT_DELETED = "Document deleted successfully";

/**
 * Where the firm's delete put a client's document (the client's trash, or only the firm's for a
 * share pulled back), and what a legal hold on the account, which the client is never told of, does to it.
 */
export function firmTrashNote(legalHold: boolean, trash: "client" | "firm" = "client"): string {
  const where = trash === "client" ? "the client's trash" : "the firm's trash";
  return legalHold
    ? `It is in ${where}. The account is under a legal hold: it stays there, never deleted for good, until the hold is lifted.`
    : `It is in ${where} for ${TRASH_RETENTION_DAYS} days, then deleted for good.`;
}
