import { router } from "../../trpc/init.ts";
import { publicProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { siteContentKeyInput, updateSiteContentInput, updateTestimonialsInput } from "./schemas.ts";
import {
  initSiteContent,
  publicSiteContent,
  resetSiteValue,
  saveTestimonials,
  siteContentEditorView,
  storedSiteContent,
  updateSiteValue,
} from "./service.ts";

/** Public read of the site content for the landing page (stored values over the defaults). */
export const siteRouter = router({
  content: publicProcedure.query(({ ctx }) => publicSiteContent(ctx)),
  /** Links the landing page points at that come from configuration rather than site content. */
  links: publicProcedure.query(({ ctx }) => ({ notaryUrl: ctx.config.notaryUrl, firmTimeZone: ctx.config.firmTimeZone })),
});

/** The site editor, gathered into the admin router: `admin.siteContent`, `admin.updateSiteContent`, ... */
export const siteAdminProcedures = {
  /** Only what is stored: an empty map makes the admin page offer Initialize Site Content. */
  siteContent: staffProcedure("site").query(({ ctx }) => storedSiteContent(ctx)),
  updateSiteContent: staffProcedure("site")
    .input(updateSiteContentInput)
    .mutation(({ ctx, input }) => updateSiteValue(ctx, input)),
  initSiteContent: staffProcedure("site").mutation(({ ctx }) => initSiteContent(ctx)),
  updateTestimonials: staffProcedure("site")
    .input(updateTestimonialsInput)
    .mutation(({ ctx, input }) => saveTestimonials(ctx, input.testimonials)),
  /** Every key as the site shows it, marked when that is the default. */
  siteContentEditor: staffProcedure("site").query(({ ctx }) => siteContentEditorView(ctx)),
  resetSiteContent: staffProcedure("site")
    .input(siteContentKeyInput)
    .mutation(({ ctx, input }) => resetSiteValue(ctx, input)),
};
