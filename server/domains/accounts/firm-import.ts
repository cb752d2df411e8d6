// The firm's client import: a CSV of account name, kind, person name and email, one row per person;
// rows naming the same account (any case) form one account, whose first person owns it. A dry run
// answers what would be made; a real run makes it all in one transaction, with the invitations'
// mail queued in it, and leaves out only the refused rows.
import { TRPCError } from "@trpc/server";
import type { z } from "zod";
import type { FirmContext } from "../../trpc/context.ts";
import { accountClient, recordActivity } from "../activity/record.ts";
import { emailSchema } from "../auth/schemas.ts";
import { CsvError, parseCsv } from "./csv.ts";
import { insertAccountForFirm } from "./firm-queries.ts";
import { accountName, IMPORT_MAX_ROWS, type ImportResult, kind, personName } from "./firm-schemas.ts";
import { addPerson, planPeople } from "./firm-service.ts";
import { addAccountAssignee } from "../staff/queries.ts";

const COLUMNS = "account name, kind, person name, email";

type Person = { line: number; name: string; email: string };
type Group = { name: string; kind: z.infer<typeof kind>; people: Person[] };

function firstError(result: { success: false; error: z.ZodError }): string {
  return result.error.issues[0]?.message ?? "not valid";
}

/** The rows as accounts, and the rows refused on their own (before the database is asked). */
function readRows(csv: string): { groups: Map<string, Group>; refused: ImportResult["refused"] } {
  let rows;
  try {
    rows = parseCsv(csv);
  } catch (err) {
    if (err instanceof CsvError)
      throw new TRPCError({ code: "BAD_REQUEST", message: `The CSV file could not be read: line ${err.line} has ${err.message}` });
    throw err;
  }
  const first = rows[0]?.cells[0]?.trim().toLowerCase();
  if (first === "account name" || first === "account") rows = rows.slice(1);
  if (rows.length === 0) throw new TRPCError({ code: "BAD_REQUEST", message: `The CSV file has no rows: its columns are ${COLUMNS}` });
  if (rows.length > IMPORT_MAX_ROWS)
    throw new TRPCError({ code: "BAD_REQUEST", message: `The CSV file has more than ${IMPORT_MAX_ROWS.toLocaleString("en-US")} rows: split it` });

  const groups = new Map<string, Group>();
  const refused: ImportResult["refused"] = [];
  const seen = new Map<string, number>();
  for (const { line, cells } of rows) {
    if (cells.length !== 4) {
      refused.push({ line, reason: `Expected 4 columns (${COLUMNS}), found ${cells.length}` });
      continue;
    }
    const [a, k, n, e] = cells as [string, string, string, string];
    const checks = [accountName.safeParse(a), kind.safeParse(k.trim().toLowerCase()), personName.safeParse(n), emailSchema.safeParse(e)] as const;
    const failed = checks.find((c) => !c.success);
    if (failed && !failed.success) {
      refused.push({ line, reason: firstError(failed) });
      continue;
    }
    const [name, accountKind, person, email] = checks.map((c) => c.data) as [string, Group["kind"], string, string];
    const earlier = seen.get(email.toLowerCase());
    if (earlier !== undefined) {
      refused.push({ line, reason: `This email is on line ${earlier} already` });
      continue;
    }
    const key = name.toLowerCase();
    const group = groups.get(key);
    if (group && group.kind !== accountKind) {
      refused.push({ line, reason: `Line ${group.people[0]!.line} makes this account ${group.kind}` });
      continue;
    }
    seen.set(email.toLowerCase(), line);
    if (group) group.people.push({ line, name: person, email });
    else groups.set(key, { name, kind: accountKind, people: [{ line, name: person, email }] });
  }
  return { groups, refused };
}

export async function importAccounts(ctx: FirmContext, input: { csv: string; dry_run: boolean }): Promise<ImportResult> {
  const { groups, refused } = readRows(input.csv);
  const result = await ctx.db
    .transaction()
    .execute(async (tx) => {
      const emails = [...groups.values()].flatMap((g) => g.people.map((p) => p.email));
      const plans = await planPeople(tx, ctx.firmScope, emails, ctx.now(), null);
      const accounts: ImportResult["accounts"] = [];
      for (const group of groups.values()) {
        const people: ImportResult["accounts"][number]["people"] = [];
        const todo = [];
        for (const person of group.people) {
          const plan = plans.get(person.email.toLowerCase())!;
          if ("refused" in plan) {
            refused.push({ line: person.line, reason: plan.refused });
            continue;
          }
          const role = people.length === 0 ? "owner" : "member";
          people.push({ ...person, role, action: plan.action });
          todo.push({ person: { ...person, role, notify: true } as const, plan });
        }
        if (people.length === 0) continue;
        let id: string | null = null;
        if (!input.dry_run) {
          const account = await insertAccountForFirm(tx, { name: group.name, kind: group.kind });
          id = account.id;
          // As with one account made by hand: an assigned-only staff member keeps what they import.
          if (!ctx.firmScope.all) await addAccountAssignee(tx, account.id, ctx.user.id);
          await recordActivity(tx, ctx, {
            action: "account.create",
            client: accountClient(account),
            target: { type: "account", id: account.id },
            detail: { name: account.name, kind: account.kind, imported: true },
          });
          for (const { person, plan } of todo) await addPerson(tx, ctx, account, person, plan);
        }
        accounts.push({ id, name: group.name, kind: group.kind, people });
      }
      if (!input.dry_run) {
        await recordActivity(tx, ctx, {
          action: "account.import",
          client: null,
          detail: { accounts: accounts.length, people: accounts.reduce((n, a) => n + a.people.length, 0), refused: refused.length },
        });
      }
      return accounts;
    })
    .catch((err: unknown) => {
      // An address invited by someone else meanwhile: the open-invitation index decides, and nothing of the file is made.
      if ((err as { code?: string }).code === "23505")
        throw new TRPCError({ code: "CONFLICT", message: "An address of the file was invited meanwhile: run the import again" });
      throw err;
    });
  return { dry_run: input.dry_run, accounts: result, refused: refused.sort((x, y) => x.line - y.line) };
}
