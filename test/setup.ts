import { afterAll, afterEach, beforeEach, expect, vi } from "vitest";
import { serverLogs } from "./helpers/log-registry.ts";

// A console error during a test is a failure unless the test said it expects one.
let expectedConsoleErrors = 0;
let consoleErrors: unknown[][] = [];

export function expectConsoleErrors(count = 1): void {
  expectedConsoleErrors += count;
}

beforeEach(() => {
  expectedConsoleErrors = 0;
  consoleErrors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  if (consoleErrors.length > expectedConsoleErrors) {
    expect
      .soft(
        consoleErrors.map((a) => a.map(String).join(" ")),
        "unexpected console.error",
      )
      .toEqual([]);
  }
});

// Scorecard item 10: whatever a test file did, no secret reached any server's log.
afterAll(async () => {
  if (serverLogs.length === 0) return;
  const { findSecretsInLogs } = await import("./security/log-secrets.ts");
  expect(findSecretsInLogs(serverLogs.flat()), "secrets in the server logs").toEqual([]);
});
