import { TRPCError } from "@trpc/server";

/** Placeholder for a procedure whose contract is fixed but whose body is still being built. */
export function notImplemented(): never {
  throw new TRPCError({ code: "NOT_IMPLEMENTED", message: "Not implemented yet" });
}
