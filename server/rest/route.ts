// One table for the REST paths under /api: each entry says what the path is (method, path, access,
// input, output schema, status) and what it does (a procedure call, or for bytes and browser
// redirects a handler of its own). register() turns the table into Express routes and openapi.ts
// turns the same table into /api/openapi.json, so the two cannot drift apart.
import type { Request, RequestHandler, Response, Router } from "express";
import { z } from "zod";
import { createCaller } from "../domains/_app.ts";
import type { Page } from "../domains/admin/schemas.ts";
import { idSchema } from "../domains/shared-schemas.ts";
import { SITE_SECTIONS } from "../domains/site/schemas.ts";
import { MEDIA_SLOTS } from "../domains/site-media/schemas.ts";
import type { AppDeps } from "../trpc/context.ts";
import { toHttpError } from "./errors.ts";
import { createRequestContext } from "./handler.ts";

export type Access = "public" | "client" | "admin";

/** What a successful answer is: JSON of this schema, or something else (a file, a redirect). */
export type Reply = z.ZodType | { description: string; contentType?: string; status?: number };

export type Caller = ReturnType<typeof createCaller>;

/** What a path's named segments are (`/folders/:id`), for the OpenAPI document and for the rows' types. */
export const PATH_PARAMS = {
  id: idSchema,
  folder_id: idSchema,
  section: z.enum(SITE_SECTIONS),
  key: z.string(),
  slot: z.enum(MEDIA_SLOTS),
  userId: idSchema,
} satisfies Record<string, z.ZodType>;

type ParamValue<Name extends string> = Name extends keyof typeof PATH_PARAMS ? z.input<(typeof PATH_PARAMS)[Name]> : string;

/** The named segments of an Express path: `/admin/site-content/:section/:key` gives `{ section, key }`. */
export type PathParams<Path extends string> = string extends Path
  ? Record<string, string>
  : Path extends `${string}:${infer Name}/${infer Rest}`
    ? { [K in Name]: ParamValue<K> } & PathParams<`/${Rest}`>
    : Path extends `${string}:${infer Name}`
      ? { [K in Name]: ParamValue<K> }
      : Record<never, never>;

/**
 * What a procedure call gets from the request: the path's named segments, the query and the body.
 * A row's are typed as its contract says the client sends them (its path, `query` and `body`
 * schemas' input types), so a row whose contract and procedure disagree does not compile. They are
 * not parsed here: the procedure's own input schema checks them, as it checks a tRPC call's. A
 * request without a JSON body has none: rows read a body's fields through bodyOf().
 */
export type RestInput<Path extends string = string, Body = unknown, Query = Record<string, unknown>> = {
  params: PathParams<Path>;
  query: Query;
  body: Body;
};

/** A JSON body, or a multipart form (and, with `json`, a JSON body as well: the path takes either). */
type BodySchema = z.ZodType | { multipart: z.ZodType; json?: z.ZodType };

type RouteDescription = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Express syntax (`/folders/:id`), relative to /api. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  body?: BodySchema;
  query?: z.ZodObject;
  response: Reply;
  status?: number;
};

/** Set by procedureRoute() alone, so that a JSON row written without it (its call unchecked) does not compile. */
const checkedCall = Symbol("procedureRoute");

/** A JSON route: a procedure call whose result is the answer. Written with procedureRoute(). */
export type ProcedureRoute = RouteDescription & {
  [checkedCall]: true;
  // A method, so that the typed rows procedureRoute() builds (narrower params, query and body) fit
  // the table's one row type: TypeScript compares a method's parameters both ways.
  call(caller: Caller, input: RestInput): Promise<unknown>;
  /**
   * The procedure answers a Page; REST keeps the spec's shape, a JSON array of the items, and puts
   * the total (and the next cursor) in headers.
   */
  paged?: boolean;
};

type JsonBody<B> = B extends z.ZodType ? z.input<B> : unknown;
type JsonQuery<Q> = Q extends z.ZodObject ? z.input<Q> : Record<string, unknown>;
type Json<R> = R extends z.ZodType ? KnownFields<z.output<R>> : unknown;
/**
 * A loose object's named fields without its index signature: a procedure's answer typed by an
 * interface (WebAuthn's options) has no index signature, yet has the fields the schema names.
 */
type KnownFields<T> = T extends unknown[] ? T : string extends keyof T ? { [K in keyof T as string extends K ? never : K]: T[K] } : T;
/** What the procedure must answer for a row's `response`: that schema's value, or a Page of its items. */
type Answer<R, Paged> = Paged extends true ? (Json<R> extends (infer Item)[] ? Page<Item> : never) : Json<R>;

/**
 * A JSON route whose `call` is checked against its procedure: the input it builds from the row's
 * path, query and body against the procedure's input, and the procedure's result against the row's
 * `response` (a Page of its items when `paged`).
 */
export function procedureRoute<
  const Path extends string,
  B extends BodySchema | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  R extends Reply = Reply,
  Paged extends boolean = false,
>(
  row: Omit<RouteDescription, "path" | "body" | "query" | "response"> & {
    path: Path;
    body?: B;
    query?: Q;
    response: R;
    paged?: Paged;
    call: (caller: Caller, input: RestInput<Path, JsonBody<B>, JsonQuery<Q>>) => Promise<Answer<R, Paged>>;
  },
): ProcedureRoute {
  return { ...row, [checkedCall]: true };
}

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

export function procedureHandler(deps: AppDeps, route: ProcedureRoute): RequestHandler {
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

/** The JSON body's fields (absent: none), to merge with the path's id; the procedure validates them. */
export function bodyOf<B>(input: { body: B }): B {
  // express.json() leaves no body when the request sent none: that is a body without fields.
  return input.body ?? ({} as B);
}

type WithSessionToken<T> = T extends { session_token?: string } ? T & { session_token: string } : T;

/**
 * A sign-in answered over REST: its context answers the session token (`answersSessionToken` in
 * procedureHandler above), which the procedure's type leaves optional because /trpc never answers it.
 */
export function withSessionToken<T>(answer: Promise<T>): Promise<WithSessionToken<T>> {
  // Only the type changes: the token is there because every REST call's context asks for it.
  return answer as Promise<WithSessionToken<T>>;
}

type PageQuery = { q?: string; limit?: unknown; cursor?: unknown; offset?: unknown; user_id?: string };

/** `?q=&limit=&cursor=` (or `offset`, as REST clients say it) as the list procedures take them. */
export function pageQuery({ query }: { query: PageQuery }) {
  const { q, limit, cursor, offset, user_id } = query;
  return { q, limit, cursor: cursor ?? offset, user_id };
}
