import { z } from "zod";

/** The pictures the firm may upload, and the site-content key each one fills. */
export const IMAGE_SLOTS = ["logo", "hero", "about"] as const;
export type ImageSlot = (typeof IMAGE_SLOTS)[number];
export const MEDIA_SLOTS = [...IMAGE_SLOTS, "video", "captions"] as const;
export type MediaSlot = (typeof MEDIA_SLOTS)[number];

/** The site-content value an upload sets (and a removal puts back to its default); captions have none. */
export const SLOT_CONTENT_KEY: Record<MediaSlot, { section: "company" | "hero" | "about" | "welcome"; key: string } | null> = {
  logo: { section: "company", key: "logo" },
  hero: { section: "hero", key: "image" },
  about: { section: "about", key: "image" },
  video: { section: "welcome", key: "video" },
  captions: null,
};

export const SLOT_LABEL: Record<MediaSlot, string> = {
  logo: "Logo",
  hero: "Hero image",
  about: "About image",
  video: "Welcome video",
  captions: "Captions",
};

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_VIDEO_BYTES = 200 * 1024 * 1024;
export const MAX_CAPTIONS_BYTES = 512 * 1024;

export function maxBytesOf(slot: MediaSlot): number {
  if (slot === "video") return MAX_VIDEO_BYTES;
  if (slot === "captions") return MAX_CAPTIONS_BYTES;
  return MAX_IMAGE_BYTES;
}

/** What the file chooser offers for each slot; the server decides by the bytes, not by this. */
export const SLOT_ACCEPT: Record<MediaSlot, string> = {
  logo: "image/png,image/jpeg,image/webp",
  hero: "image/png,image/jpeg,image/webp",
  about: "image/png,image/jpeg,image/webp",
  video: "video/mp4,video/webm",
  captions: ".vtt,text/vtt",
};

export const MEDIA_MESSAGES = {
  image: "The picture must be a PNG, JPEG or WebP image (SVG and other types are not accepted)",
  imageUnreadable: "The picture could not be read: upload a PNG, JPEG or WebP image",
  imageTooLarge: "The picture must be at most 10 MB",
  imageTooManyPixels: "The picture is too large: at most 50 megapixels (for example 8000 × 6000)",
  video: "The video must be an MP4 or WebM file",
  videoTooLarge: "The video must be at most 200 MB",
  captions: 'Captions must be a WebVTT file (.vtt, text starting with "WEBVTT")',
  captionsTooLarge: "Captions must be at most 512 KB",
  captionsNeedVideo: "Upload the video before its captions",
  notFound: "No such file",
  uploadedMeanwhile: "Another upload into this place finished at the same moment: upload again",
} as const;

export function tooLargeMessage(slot: MediaSlot): string {
  if (slot === "video") return MEDIA_MESSAGES.videoTooLarge;
  if (slot === "captions") return MEDIA_MESSAGES.captionsTooLarge;
  return MEDIA_MESSAGES.imageTooLarge;
}

export const mediaSlotInput = z.object({
  slot: z.enum(MEDIA_SLOTS, { error: "Unknown media slot: logo, hero, about, video or captions" }),
});

/** A file the upload handler has stored, checked and named; the procedure records it. */
export const recordMediaInput = mediaSlotInput.extend({
  name: z.string().regex(/^(logo|hero|about|video|captions)-[0-9a-f]{32}\.(webp|mp4|webm|vtt)$/),
  storage_key: z.string().min(16).max(128),
  content_type: z.enum(["image/webp", "video/mp4", "video/webm", "text/vtt"]),
  byte_size: z.number().int().min(0),
  width: z.number().int().positive().nullable(),
  height: z.number().int().positive().nullable(),
  original_filename: z.string().max(255),
});
export type RecordMediaInput = z.infer<typeof recordMediaInput>;

/** The site's switches: the welcome modal on a first visit, the testimonials section. */
export const siteOptionsInput = z
  .object({ welcomeModal: z.boolean().optional(), testimonials: z.boolean().optional() })
  .refine((v) => v.welcomeModal !== undefined || v.testimonials !== undefined, { message: "Name welcomeModal or testimonials" });

/** The public path of an uploaded file. */
export const mediaUrl = (name: string) => `/media/${name}`;

export const siteMediaItemOutput = z.object({
  slot: z.enum(MEDIA_SLOTS),
  url: z.string(),
  content_type: z.string(),
  byte_size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  original_filename: z.string(),
  uploaded_at: z.date(),
});
export type SiteMediaItem = z.infer<typeof siteMediaItemOutput>;

/** The Site tab's view: what is uploaded, the switches, and whether the testimonials are still the samples. */
export const siteMediaViewOutput = z.object({
  items: z.partialRecord(z.enum(MEDIA_SLOTS), siteMediaItemOutput),
  welcomeModal: z.boolean(),
  testimonials: z.boolean(),
  /** The carousel shows the built-in sample quotes, marked as samples: the firm has none of its own yet. */
  testimonialsAreSamples: z.boolean(),
  /** How many samples are still in the list (each stays one until the firm edits, confirms or deletes it). */
  testimonialSamples: z.number().int(),
  /** When the firm confirmed the samples as a whole, before confirming became one by one (issue 48); null otherwise. */
  testimonialsConfirmedAt: z.date().nullable(),
});
export type SiteMediaView = z.infer<typeof siteMediaViewOutput>;

/** What the landing page needs of it (embedded with the site content). */
export type PublicSiteMedia = {
  video: { src: string; type: string; captions: string | null } | null;
  welcomeModal: boolean;
  testimonials: boolean;
};

/** POST /admin/testimonials/confirm: the sample at this place of the list the editor shows. */
export const confirmTestimonialInput = z.object({
  index: z
    .number({ error: "index must be a number" })
    .int("index must be a whole number")
    .min(0, "index must be 0 or more")
    .max(99, "index must be at most 99"),
});
