// The HTTP surface: security headers and CSRF first, then tRPC at /trpc, the spec's REST paths at
// /api (each one a call of the same tRPC procedure), then the built React app. No globals: every
// dependency comes in through `deps`, so tests build as many apps as they like.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as trpcExpress from "@trpc/server/adapters/express";
import compression from "compression";
import express, { type RequestHandler } from "express";
import expressStaticGzip from "express-static-gzip";
import helmet from "helmet";
import { csrfProtection } from "./auth/csrf.ts";
import { isDatabaseUnavailable } from "./db/errors.ts";
import { bodyDeadline, DEFAULT_CONNECTION_LIMITS } from "./http-limits.ts";
import { landingPageCache } from "./index-html.ts";
import { errorHandler } from "./rest/errors.ts";
import { createRequestContext } from "./rest/handler.ts";
import { registerRestRoutes } from "./rest/routes.ts";
import { siteMediaFileRoute } from "./rest/site-media.ts";
import { appRouter } from "./domains/_app.ts";
import type { AppDeps } from "./trpc/context.ts";

const MAX_JSON_BYTES = 1024 * 1024;
const MAX_BATCH_CALLS = 10;
/** The routes whose body may take minutes to arrive (see http-limits.ts): the client's upload, the firm's into a client's documents, and the firm's site media (a video of up to 200 MB). */
const UPLOAD_PATHS = [/^\/api\/documents\/upload$/, /^\/api\/admin\/users\/[^/]+\/documents$/, /^\/api\/admin\/site-media\/[^/]+$/];
/** The client routes of the spec, the account settings and Google sign-in's second step (issue 20), the legal pages (issue 31) and the public check of a signed PDF (issue 35); each serves the React app. */
const SPA_ROUTES = [
  "/",
  "/profile",
  "/dashboard",
  "/admin",
  "/admin/dashboard",
  "/settings",
  "/two-factor",
  "/privacy",
  "/terms",
  "/signatures/verify",
];
/** The public pages served with the site's data embedded (server/index-html.ts), so they paint without an API call. */
const PUBLIC_DATA_PAGES = ["/", "/privacy", "/terms"];
/** Pages with an id in the path: the admin's page of one client, of one client account and its access report, the client's organizer and signing page (a reload or a link answered 404). */
const SPA_ROUTE_PATTERNS = [
  /^\/admin\/users\/[0-9a-f-]{36}$/i,
  /^\/admin\/accounts\/[0-9a-f-]{36}(?:\/access)?$/i,
  /^\/organizers\/[0-9a-f-]{36}$/i,
  /^\/signatures\/[0-9a-f-]{36}$/i,
];

const defaultClientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/client");

export type AppOptions = { clientDir?: string; bodyTimeoutMs?: number };

export function createApp(deps: AppDeps, opts: AppOptions = {}) {
  const { config, logger } = deps;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);
  app.set("query parser", "simple");
  // API answers are no-store, so nobody revalidates them: hashing each body for an ETag is wasted
  // work. Static files keep theirs (express.static and sendFile set their own).
  app.set("etag", false);

  app.use(securityHeaders(config.secureCookies));
  app.use(bodyDeadline(opts.bodyTimeoutMs ?? DEFAULT_CONNECTION_LIMITS.bodyTimeoutMs, UPLOAD_PATHS));
  // No compression on the REST answers: they are mostly far below the 1 KB where compressing
  // starts, yet the middleware cost about a third of such a request's CPU (docs/performance.md); the
  // few large lists are compressed by the reverse proxy (docs/deployment.md). /trpc keeps it for
  // now: without it, a burst of 100 refused calls at once saw connections reset (the superjson
  // burst test), a cause not yet found in tRPC's adapter.
  app.use("/api/openapi.json", compression());
  app.use("/trpc", compression());

  const api = express.Router();
  api.use(csrfProtection(config));
  api.use(express.json({ limit: MAX_JSON_BYTES }));
  api.use(express.urlencoded({ limit: MAX_JSON_BYTES, extended: false }));
  registerRestRoutes(api, deps);
  api.use((_req, res) => {
    res.status(404).json({ detail: "Not found" });
  });
  api.use(errorHandler(logger));
  app.use("/api", noStore, api);

  app.use(
    "/trpc",
    noStore,
    csrfProtection(config),
    trpcExpress.createExpressMiddleware({
      router: appRouter,
      createContext: ({ req, res }) => createRequestContext(deps, req, res),
      maxBatchSize: MAX_BATCH_CALLS,
      maxBodySize: MAX_JSON_BYTES,
      onError: ({ error, path: procedure }) => {
        if (error.code === "INTERNAL_SERVER_ERROR" && !isDatabaseUnavailable(error.cause)) {
          logger.error({ err: error.cause ?? error, procedure }, "procedure failed");
        }
      },
    }),
  );

  // The firm's uploaded pictures and video (rest/site-media.ts): public, named by their content.
  app.get("/media/:name", siteMediaFileRoute(deps));
  serveClient(app, deps, opts.clientDir ?? defaultClientDir);
  app.use(errorHandler(logger));
  return app;
}

function securityHeaders(https: boolean): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix and sonner set inline style attributes and a runtime <style>; scripts stay strict.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        mediaSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "no-referrer" },
    crossOriginEmbedderPolicy: false,
  });
}

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader("Cache-Control", "no-store");
  next();
};

function serveClient(app: express.Express, deps: AppDeps, clientDir: string): void {
  const indexFile = path.join(clientDir, "index.html");
  app.use(compression());
  const landingPage = landingPageCache(indexFile, deps);
  // Hashed build assets never change under their name; everything else is revalidated. The build
  // writes each script and stylesheet also brotli- and gzip-compressed at the highest levels
  // (vite.config.ts), served by what the browser accepts, so no request compresses them again.
  app.use(
    "/assets",
    expressStaticGzip(path.join(clientDir, "assets"), {
      enableBrotli: true,
      orderPreference: ["br", "gzip"],
      serveStatic: { immutable: true, maxAge: "1y", fallthrough: false, index: false },
    }),
  );
  app.use(express.static(clientDir, { index: false, maxAge: 0 }));
  app.get("/{*path}", async (req, res) => {
    if (!fs.existsSync(indexFile)) {
      res.status(503).type("text").send("The web client is not built yet: run `npm run build`.");
      return;
    }
    res.setHeader("Cache-Control", "no-cache");
    const page = req.path.replace(/\/$/, "") || "/";
    if (PUBLIC_DATA_PAGES.includes(page)) {
      res.type("html").send(await landingPage());
      return;
    }
    const known = SPA_ROUTES.includes(page) || SPA_ROUTE_PATTERNS.some((pattern) => pattern.test(page));
    // `root` keeps send's dotfile rule to the file's own name: an install (or the tests' build cache)
    // under a folder like `.cache` would otherwise answer every page with a 404.
    res.status(known ? 200 : 404).sendFile("index.html", { root: clientDir });
  });
}
