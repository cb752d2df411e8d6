import { router } from "../../trpc/init.ts";
import { adminProcedure, publicProcedure } from "../../trpc/procedures.ts";
import { mediaSlotInput, recordMediaInput, siteOptionsInput } from "./schemas.ts";
import {
  confirmTestimonials,
  prepareMediaUpload,
  publicSiteMedia,
  recordMediaUpload,
  removeMedia,
  siteMediaView,
  updateSiteOptions,
} from "./service.ts";

/** The firm's uploaded pictures and video, and the public site's switches (docs/site-content.md). */
export const siteMediaRouter = router({
  /** What the landing page needs: the welcome video, whether the modal and the testimonials show. */
  public: publicProcedure.query(({ ctx }) => publicSiteMedia(ctx)),
  view: adminProcedure.query(({ ctx }) => siteMediaView(ctx)),
  remove: adminProcedure.input(mediaSlotInput).mutation(({ ctx, input }) => removeMedia(ctx, input)),
  updateOptions: adminProcedure.input(siteOptionsInput).mutation(({ ctx, input }) => updateSiteOptions(ctx, input)),
  confirmTestimonials: adminProcedure.mutation(({ ctx }) => confirmTestimonials(ctx)),
});

/** Uploads: bytes, so REST receives them (server/rest/site-media.ts), never /trpc. */
export const siteMediaTransfersRouter = router({
  prepareUpload: adminProcedure.input(mediaSlotInput).mutation(({ ctx, input }) => prepareMediaUpload(ctx, input)),
  recordUpload: adminProcedure.input(recordMediaInput).mutation(({ ctx, input }) => recordMediaUpload(ctx, input)),
});
