// The shape of the firm's API (docs/architecture.md, "The firm's API"): the admin router keeps a
// few procedures of its own and mounts one sub-router per domain, and every firm procedure is
// behind adminProcedure with its right declared in the authorization matrix's table. No database.
import { describe, expect, it } from "vitest";
import { appRouter } from "../../server/domains/_app.ts";
import { adminRouter } from "../../server/domains/admin/router.ts";
import { adminProcedure } from "../../server/trpc/procedures.ts";
import { ANY_STAFF, PROCEDURE_ACCESS, rightOf } from "../security/helpers.ts";

type Def = { middlewares: unknown[]; procedure?: true };
type Node = ((...args: never[]) => unknown) & { _def?: Def };

const isProcedure = (value: unknown): value is Node => typeof value === "function" && (value as Node)._def?.procedure === true;

const record = (adminRouter as unknown as { _def: { record: Record<string, unknown> } })._def.record;
const flat = (appRouter as unknown as { _def: { procedures: Record<string, Node> } })._def.procedures;
const firmPaths = Object.keys(flat).filter((path) => path.startsWith("admin.") && path !== "admin.login");

describe("the firm's API", () => {
  it("admin keeps at most 8 procedures of its own; every other entry is a domain's sub-router", () => {
    const own = Object.keys(record).filter((name) => isProcedure(record[name]));
    const subRouters = Object.keys(record).filter((name) => !isProcedure(record[name]));
    expect(own.length).toBeLessThanOrEqual(8);
    for (const name of subRouters) {
      const entries = Object.values(record[name] as Record<string, unknown>);
      expect(entries.length, `admin.${name}`).toBeGreaterThan(0);
      // One level: a domain's procedures, not routers of routers.
      expect(entries.every(isProcedure), `admin.${name}`).toBe(true);
    }
    expect(subRouters.length).toBeGreaterThan(0);
  });

  it("every firm procedure runs behind adminProcedure (the firm's session and its staff access)", () => {
    const guard = (adminProcedure as unknown as { _def: Def })._def.middlewares;
    expect(firmPaths.length).toBeGreaterThan(100);
    for (const path of firmPaths) {
      const middlewares = flat[path]!._def!.middlewares;
      expect(
        guard.every((m, i) => middlewares[i] === m),
        path,
      ).toBe(true);
    }
  });

  it("every firm procedure has its access and its right declared in the authorization matrix", () => {
    for (const path of firmPaths) {
      expect(PROCEDURE_ACCESS[path], path).toBe("admin");
      expect(rightOf(path) !== "any" || ANY_STAFF.has(path), `${path}: no right and not open to all of the firm`).toBe(true);
    }
  });
});
