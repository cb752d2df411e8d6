import { useEffect } from "react";
import { httpStatus } from "./api-error.ts";

/**
 * Logs a failed background load to the console. The spec shows users no message when loading
 * folders, documents or appointments fails; the failure still has to leave a trace.
 */
export function useLoggedError(error: unknown, what: string): void {
  useEffect(() => {
    // A 401 is no fault to trace: the session ended, and the portal sends the user to sign in.
    if (error && httpStatus(error) !== 401) console.error(`Failed to load ${what}`, error);
  }, [error, what]);
}
