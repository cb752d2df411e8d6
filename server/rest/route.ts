// One table for the REST paths under /api: each entry says what the path is (method, path, access,
// input, output schema, status) and what it does (a procedure call, or for bytes and browser
// redirects a handler of its own). register() turns the table into Express routes and openapi.ts
// turns the same table into /api/openapi.json, so the two cannot drift apart.
import type { Request, RequestHandler, Response, Router } from "express";
import { z } from "zod";
import { createCaller } from "../domains/_app.ts";
import type { Page } from "../domains/admin/schemas.ts";
import type { AppDeps } from "../trpc/context.ts";
import { toHttpError } from "./errors.ts";
import { createRequestContext } from "./handler.ts";

export type Access = "public" | "client" | "admin";

/** What a successful answer is: JSON of this schema, or something else (a file, a redirect). */
export type Reply = z.ZodType | { description: string; contentType?: string; status?: number };

export type Caller = ReturnType<typeof createCaller>;

/** What a procedure call gets from the request: the path's named segments, the query and the body. */
export type RestInput = {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
};

type RouteDescription = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Express syntax (`/folders/:id`), relative to /api. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  body?: z.ZodType | { multipart: z.ZodType };
  query?: z.ZodObject;
  response: Reply;
  status?: number;
};

/** A JSON route: a procedure call whose result is the answer. */
export type ProcedureRoute = RouteDescription & {
  call: (caller: Caller, input: RestInput) => Promise<unknown>;
  /**
   * The procedure answers a Page; REST keeps the spec's shape, a JSON array of the items, and puts
   * the total (and the next cursor) in headers.
   */
  paged?: boolean;
};

/** A route that answers with more than JSON (a file, a browser redirect): its own handler. */
export type HandlerRoute = RouteDescription & { handler: (deps: AppDeps) => RequestHandler };

export type RestRoute = ProcedureRoute | HandlerRoute;

/** The status of a successful answer. */
export function successStatus(route: RestRoute): number {
  return route.status ?? (route.response instanceof z.ZodType ? 200 : (route.response.status ?? 200));
}

export function register(api: Router, deps: AppDeps, routes: readonly RestRoute[]): void {
  for (const route of routes) {
    api[route.method](route.path, "handler" in route ? route.handler(deps) : procedureHandler(deps, route));
  }
}

function procedureHandler(deps: AppDeps, route: ProcedureRoute): RequestHandler {
  return async (req: Request, res: Response) => {
    // The REST paths answer the token of a session they open, as the specification's login does.
    const caller = createCaller(createRequestContext(deps, req, res, { answersSessionToken: true }));
    try {
      const result = await route.call(caller, { params: req.params as Record<string, string>, query: req.query, body: req.body });
      if (res.headersSent) return;
      res.status(successStatus(route)).json(route.paged ? pageAsArray(res, result as Page<unknown>) : result);
    } catch (err) {
      const { status, detail } = toHttpError(err, deps.logger);
      if (!res.headersSent) res.status(status).json({ detail });
    }
  };
}

function pageAsArray<T>(res: Response, page: Page<T>): T[] {
  res.setHeader("X-Total-Count", String(page.total));
  if (page.totalCapped) res.setHeader("X-Total-Capped", "true");
  if (page.nextCursor !== null) res.setHeader("X-Next-Cursor", String(page.nextCursor));
  return page.items;
}

/** The JSON body as an object of fields (absent: none), to merge with the path's id; the procedure validates it. */
export function bodyOf(input: { body: unknown }): Record<string, unknown> {
  return (input.body ?? {}) as Record<string, unknown>;
}

/** `?q=&limit=&cursor=` (or `offset`, as REST clients say it) as the list procedures take them. */
export function pageQuery({ query }: RestInput): never {
  const { q, limit, cursor, offset, user_id } = query;
  return { q, limit, cursor: cursor ?? offset, user_id } as never;
}
