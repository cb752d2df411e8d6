import { router } from "../../trpc/init.ts";
import { publicProcedure, staffProcedure } from "../../trpc/procedures.ts";
import { confirmTestimonialInput, mediaSlotInput, recordMediaInput, siteOptionsInput } from "./schemas.ts";
import {
  confirmTestimonials,
  prepareMediaUpload,
  publicSiteMedia,
  recordMediaUpload,
  removeMedia,
  siteMediaView,
  updateSiteOptions,
} from "./service.ts";

/** What the landing page needs of the firm's media: the welcome video, whether the modal and the testimonials show. */
export const siteMediaRouter = router({
  public: publicProcedure.query(({ ctx }) => publicSiteMedia(ctx)),
});

/** The Site tab's uploads and switches, the firm sub-router `admin.siteMedia` (docs/site-content.md). */
export const siteMediaFirmRouter = router({
  get: staffProcedure("site").query(({ ctx }) => siteMediaView(ctx)),
  remove: staffProcedure("site")
    .input(mediaSlotInput)
    .mutation(({ ctx, input }) => removeMedia(ctx, input)),
  updateOptions: staffProcedure("site")
    .input(siteOptionsInput)
    .mutation(({ ctx, input }) => updateSiteOptions(ctx, input)),
  /** One sample, by its place in the editor's list, confirmed as the firm's to publish. */
  confirmTestimonials: staffProcedure("site")
    .input(confirmTestimonialInput)
    .mutation(({ ctx, input }) => confirmTestimonials(ctx, input)),
});

/** Uploads: bytes, so REST receives them (server/rest/site-media.ts), never /trpc. */
export const siteMediaTransfersRouter = router({
  prepareUpload: staffProcedure("site")
    .input(mediaSlotInput)
    .mutation(({ ctx, input }) => prepareMediaUpload(ctx, input)),
  recordUpload: staffProcedure("site")
    .input(recordMediaInput)
    .mutation(({ ctx, input }) => recordMediaUpload(ctx, input)),
});
