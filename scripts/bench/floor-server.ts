// The framework floors: the least an app on our stack can do for GET /me and the tRPC batch, so
// the bench can tell the framework's cost from ours. FLOOR=express: Express 5 with one route per
// path; FLOOR=trpc: Express 5 + the tRPC v11 adapter with superjson, a context that looks up the
// session, and two query procedures. Same SQL and pool as the bare server (baseline-session.ts).
import { initTRPC, TRPCError } from "@trpc/server";
import * as trpcExpress from "@trpc/server/adapters/express";
import compression from "compression";
import express from "express";
import superjson from "superjson";
import { listFolders, lookupSession, type SessionUser, serveForBench } from "./baseline-session.ts";

const floor = process.env.FLOOR;
const app = express();

if (floor === "express") {
  app.get("/me", async (req, res) => {
    const user = await lookupSession(req.headers.cookie);
    if (!user) res.status(401).json({ detail: "Not authenticated" });
    else res.json(user);
  });
  // The app's landing page as it rendered it (fetched once from BENCH_PAGE_URL), sent from memory
  // and compressed as the app compresses it.
  let page: Promise<string> | undefined;
  app.get("/page", compression(), async (_req, res) => {
    page ??= fetch(process.env.BENCH_PAGE_URL!).then((r) => r.text());
    res.type("html").send(await page);
  });
} else if (floor === "trpc") {
  // One session lookup per request, in the context, as the app does for a whole batch.
  const t = initTRPC.context<{ user: SessionUser | null }>().create({ transformer: superjson });
  const authed = t.procedure.use(({ ctx, next }) => {
    if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Not authenticated" });
    return next({ ctx: { user: ctx.user } });
  });
  const router = t.router({
    auth: t.router({ me: authed.query(({ ctx }) => ctx.user) }),
    folders: t.router({ list: authed.query(({ ctx }) => listFolders(ctx.user.id)) }),
  });
  app.use(
    "/trpc",
    trpcExpress.createExpressMiddleware({ router, createContext: async ({ req }) => ({ user: await lookupSession(req.headers.cookie) }) }),
  );
} else {
  throw new Error("FLOOR must be express or trpc");
}

const server = app.listen(0, "127.0.0.1", () => serveForBench(server));
server.keepAliveTimeout = 5000;
