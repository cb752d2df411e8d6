import { router } from "../../trpc/init.ts";
import { publicProcedure } from "../../trpc/procedures.ts";
import { publicSiteContent } from "./service.ts";

/** Public read of the site content for the landing page (stored values over the defaults). */
export const siteRouter = router({
  content: publicProcedure.query(({ ctx }) => publicSiteContent(ctx)),
  /** Links the landing page points at that come from configuration rather than site content. */
  links: publicProcedure.query(({ ctx }) => ({ notaryUrl: ctx.config.notaryUrl })),
});
