import { router } from "../../trpc/init.ts";
import { adminProcedure, publicProcedure } from "../../trpc/procedures.ts";
import { siteContentKeyInput } from "./schemas.ts";
import { publicSiteContent, resetSiteValue, siteContentEditorView } from "./service.ts";

/** Public read of the site content for the landing page (stored values over the defaults). */
export const siteRouter = router({
  content: publicProcedure.query(({ ctx }) => publicSiteContent(ctx)),
  /** Links the landing page points at that come from configuration rather than site content. */
  links: publicProcedure.query(({ ctx }) => ({ notaryUrl: ctx.config.notaryUrl, firmTimeZone: ctx.config.firmTimeZone })),
});

/** The site editor's procedures, mounted in the admin router beside the spec's site-content ones. */
export const siteEditorProcedures = {
  /** Every key as the site shows it, marked when that is the default. */
  siteContentEditor: adminProcedure.query(({ ctx }) => siteContentEditorView(ctx)),
  resetSiteContent: adminProcedure.input(siteContentKeyInput).mutation(({ ctx, input }) => resetSiteValue(ctx, input)),
};
