import { TRPCClientError } from "@trpc/client";

/**
 * The server's own message for a failed call, or undefined when it has none meant for users:
 * no answer from our server (offline, a proxy's error page) or a fault it hides behind
 * "Internal server error". Pages show `errorDetail(err) ?? "<spec fallback>"`. A 503 keeps its
 * detail: it tells the user the service is briefly unavailable.
 */
export function errorDetail(err: unknown): string | undefined {
  if (!(err instanceof TRPCClientError) || !err.shape) return undefined;
  if (err.data?.code === "INTERNAL_SERVER_ERROR") return undefined;
  return err.message || undefined;
}

/** The HTTP status of a failed tRPC call, when known. */
export function httpStatus(err: unknown): number | undefined {
  if (!(err instanceof TRPCClientError)) return undefined;
  const status: unknown = err.data?.httpStatus;
  return typeof status === "number" ? status : undefined;
}
