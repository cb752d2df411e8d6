// How guessable a password is, by zxcvbn: the same dictionaries and rule (`isGuessableResult`) as
// the password field's meter in src/lib/password-strength.ts, which the client loads only where a
// password is typed.
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { isGuessableResult } from "../domains/auth/schemas.ts";

let factory: ZxcvbnFactory | undefined;

/** `userInputs` (the username, email, name) count as known words too. */
export function isGuessablePassword(password: string, userInputs: (string | null | undefined)[] = []): boolean {
  factory ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  return isGuessableResult(
    factory.check(
      password,
      userInputs.filter((input): input is string => Boolean(input)),
    ),
  );
}
