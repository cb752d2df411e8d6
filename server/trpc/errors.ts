import { TRPCError } from "@trpc/server";
import type { ZodError } from "zod";

/**
 * A well-formed request the server will not carry out (deleting an admin account). Over REST it
 * answers 400, where every other BAD_REQUEST is invalid input (422).
 */
export class RequestRefused extends TRPCError {
  constructor(message: string) {
    super({ code: "BAD_REQUEST", message });
  }
}

const ZOD_DEFAULT_MESSAGE = /^(Invalid|Too (big|small)|Unrecognized)/;

/** One readable sentence for a validation failure: our own messages as they are, zod's with the field. */
export function zodIssuesDetail(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid input";
  const field = issue.path.map(String).join(".");
  return field && ZOD_DEFAULT_MESSAGE.test(issue.message) ? `${field}: ${issue.message}` : issue.message;
}
