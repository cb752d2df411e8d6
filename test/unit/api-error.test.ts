import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { errorDetail, httpStatus } from "../../src/lib/api-error.ts";

/** A failed call as the tRPC link hands it over: the error shape our server's formatter sends. */
function answered(message: string, code: string, status: number) {
  return TRPCClientError.from({ error: { message, code: -32600, data: { code, httpStatus: status, path: "auth.login" } } });
}

describe("errorDetail", () => {
  it("gives the server's detail for refusals meant for users", () => {
    expect(errorDetail(answered("Invalid username or password", "UNAUTHORIZED", 401))).toBe("Invalid username or password");
    expect(errorDetail(answered("Folder is not empty", "CONFLICT", 409))).toBe("Folder is not empty");
    expect(errorDetail(answered("The service is briefly unavailable. Please try again.", "SERVICE_UNAVAILABLE", 503))).toBe(
      "The service is briefly unavailable. Please try again.",
    );
    expect(httpStatus(answered("Folder is not empty", "CONFLICT", 409))).toBe(409);
  });

  it("gives nothing for a server fault, so pages show their own fallback", () => {
    expect(errorDetail(answered("Internal server error", "INTERNAL_SERVER_ERROR", 500))).toBeUndefined();
  });

  it("gives nothing when our server did not answer", () => {
    expect(errorDetail(TRPCClientError.from(new TypeError("Failed to fetch")))).toBeUndefined();
    expect(errorDetail(new Error("boom"))).toBeUndefined();
    expect(httpStatus(new Error("boom"))).toBeUndefined();
  });
});
