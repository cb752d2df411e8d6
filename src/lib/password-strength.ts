// zxcvbn with its common dictionaries (about 1 MB of words): imported only by the strength meter,
// and only once a password is being typed, so no page pays for it before then. The server checks
// the same way (server/auth/password-strength.ts), with the same rule (`isGuessableResult`).
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { isGuessableResult } from "@server/domains/auth/schemas.ts";

const zxcvbn = new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });

export type PasswordStrength = { score: 0 | 1 | 2 | 3 | 4; guessable: boolean };

export function measurePassword(password: string, userInputs: string[]): PasswordStrength {
  const result = zxcvbn.check(password, userInputs.filter(Boolean));
  return { score: result.score, guessable: isGuessableResult(result) };
}
