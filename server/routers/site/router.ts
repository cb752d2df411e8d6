import { router } from "../../trpc/init.ts";
import { notImplemented } from "../../trpc/not-implemented.ts";
import { publicProcedure } from "../../trpc/procedures.ts";
import type { SiteContent } from "./schemas.ts";

/** Public read of the site content for the landing page (stored values over the defaults). */
export const siteRouter = router({
  content: publicProcedure.query(async (): Promise<SiteContent> => notImplemented()),
});
