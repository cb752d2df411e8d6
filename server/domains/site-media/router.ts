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

/** What the landing page needs of the firm's media: the welcome video, whether the modal and the testimonials show. */
export const siteMediaRouter = router({
  public: publicProcedure.query(({ ctx }) => publicSiteMedia(ctx)),
});

/** The Site tab's uploads and switches, gathered into the admin router (docs/site-content.md). */
export const siteMediaAdminProcedures = {
  siteMedia: adminProcedure.query(({ ctx }) => siteMediaView(ctx)),
  removeSiteMedia: adminProcedure.input(mediaSlotInput).mutation(({ ctx, input }) => removeMedia(ctx, input)),
  updateSiteOptions: adminProcedure.input(siteOptionsInput).mutation(({ ctx, input }) => updateSiteOptions(ctx, input)),
  confirmTestimonials: adminProcedure.mutation(({ ctx }) => confirmTestimonials(ctx)),
};

/** Uploads: bytes, so REST receives them (server/rest/site-media.ts), never /trpc. */
export const siteMediaTransfersRouter = router({
  prepareUpload: adminProcedure.input(mediaSlotInput).mutation(({ ctx, input }) => prepareMediaUpload(ctx, input)),
  recordUpload: adminProcedure.input(recordMediaInput).mutation(({ ctx, input }) => recordMediaUpload(ctx, input)),
});
