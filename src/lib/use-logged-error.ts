import { useEffect } from "react";

/**
 * Logs a failed background load to the console. The spec shows users no message when loading
 * folders, documents or appointments fails; the failure still has to leave a trace.
 */
export function useLoggedError(error: unknown, what: string): void {
  useEffect(() => {
    if (error) console.error(`Failed to load ${what}`, error);
  }, [error, what]);
}
