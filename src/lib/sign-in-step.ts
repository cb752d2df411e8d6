import type { LoginResult } from "@server/domains/auth/schemas.ts";

/** What a sign-in still needs after its password: a code ("verify") or setting up a second factor first ("enrol"). */
export type SignInStep = { kind: "verify" | "enrol"; challenge: string };

/** The second step a login answer asks for; null when it signed in. */
export function secondStepOf(result: LoginResult): SignInStep | null {
  if ("two_factor_required" in result) return { kind: "verify", challenge: result.challenge };
  if ("two_factor_setup_required" in result) return { kind: "enrol", challenge: result.challenge };
  return null;
}
