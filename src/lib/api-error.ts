import { TRPCClientError } from "@trpc/client";

/** A failed REST call (`/api/...`): the HTTP status and the `{ detail }` of the JSON body, if any. */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string | undefined;

  constructor(status: number, detail: string | undefined) {
    super(detail ?? `Request failed with status ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
  }

  /** Builds the error from a non-OK fetch response, reading `{ detail }` when the body is JSON. */
  static async fromResponse(response: Response): Promise<ApiError> {
    const body: unknown = await response.json().catch(() => undefined);
    return new ApiError(response.status, detailOf(body));
  }
}

function detailOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || !("detail" in value)) return undefined;
  const { detail } = value;
  return typeof detail === "string" && detail.trim() !== "" ? detail : undefined;
}

/**
 * The server's own message for a failed call, or undefined when the server sent none
 * (network failure, unexpected body). Pages show `errorDetail(err) ?? "<spec fallback>"`.
 */
export function errorDetail(err: unknown): string | undefined {
  if (err instanceof TRPCClientError) {
    // Without an error shape the failure never reached our server's error formatter
    // (offline, proxy error page), so its message is not one meant for users.
    return err.shape ? err.message || undefined : undefined;
  }
  if (err instanceof ApiError) return err.detail;
  return detailOf(err);
}

/** The HTTP status of a failed tRPC or REST call, when known. */
export function httpStatus(err: unknown): number | undefined {
  if (err instanceof TRPCClientError) {
    const status: unknown = err.data?.httpStatus;
    return typeof status === "number" ? status : undefined;
  }
  if (err instanceof ApiError) return err.status;
  return undefined;
}
