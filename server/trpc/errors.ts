import { TRPCError } from "@trpc/server";

/**
 * A well-formed request the server will not carry out (deleting an admin account). Over REST it
 * answers 400, where every other BAD_REQUEST is invalid input (422).
 */
export class RequestRefused extends TRPCError {
  constructor(message: string) {
    super({ code: "BAD_REQUEST", message });
  }
}
