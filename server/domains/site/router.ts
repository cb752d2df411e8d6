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

/** The site editor, the firm sub-router `admin.siteContent`: `admin.siteContent.get`, `admin.siteContent.update`, ... */
export const siteFirmRouter = router({
  /** Only what is stored: an empty map makes the admin page offer Initialize Site Content. */
  get: staffProcedure("site").query(({ ctx }) => storedSiteContent(ctx)),
  update: staffProcedure("site")
    .input(updateSiteContentInput)
    .mutation(({ ctx, input }) => updateSiteValue(ctx, input)),
  init: staffProcedure("site").mutation(({ ctx }) => initSiteContent(ctx)),
  updateTestimonials: staffProcedure("site")
    .input(updateTestimonialsInput)
    .mutation(({ ctx, input }) => saveTestimonials(ctx, input.testimonials)),
  /** Every key as the site shows it, marked when that is the default. */
  editor: staffProcedure("site").query(({ ctx }) => siteContentEditorView(ctx)),
  reset: staffProcedure("site")
    .input(siteContentKeyInput)
    .mutation(({ ctx, input }) => resetSiteValue(ctx, input)),
});
