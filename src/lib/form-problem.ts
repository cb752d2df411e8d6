import { errorDetail } from "./api-error.ts";

/** What is wrong with a form: a message, and the field at fault when there is one. */
export type FormProblem<Field extends string> = { message: string; field?: Field };

/**
 * A failed call as a form problem: the server's message (or `fallback`), on the first field whose
 * pattern matches it ("Username already exists" on the username), else for the whole form.
 */
export function serverProblem<Field extends string>(err: unknown, fallback: string, fields: Partial<Record<Field, RegExp>>): FormProblem<Field> {
  return problemFor(errorDetail(err) ?? fallback, fields);
}

/** `message` on the first field whose pattern matches it, else for the whole form. */
export function problemFor<Field extends string>(message: string, fields: Partial<Record<Field, RegExp>>): FormProblem<Field> {
  const entry = (Object.entries(fields) as Array<[Field, RegExp]>).find(([, pattern]) => pattern.test(message));
  return entry ? { message, field: entry[0] } : { message };
}

/** The message of `field`, for FormField's `error`. */
export function errorOf<Field extends string>(problem: FormProblem<Field> | null, field: Field): string | undefined {
  return problem?.field === field ? problem.message : undefined;
}

/** Moves the focus to the control at fault once React has shown its message. */
export function focusControl(id: string): void {
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}
