import { TRPCError } from "@trpc/server";
import { isPgError } from "../../db/errors.ts";
import { type ActivityActorContext, recordActivity } from "../activity/record.ts";
import { deleteSiteValue, findSiteValue, upsertSiteValue } from "../site/queries.ts";
import { confirmTestimonial, testimonialsView } from "../site/service.ts";
import { removeStoredObjects } from "../../storage/remove-stored-objects.ts";
import type { Context } from "../../trpc/context.ts";
import {
  deleteSiteMedia,
  findSiteMediaByName,
  findSiteMediaSlot,
  listSiteMedia,
  readSiteSettings,
  replaceSiteMedia,
  SITE_SETTING,
  writeSiteSetting,
} from "./queries.ts";
import {
  MEDIA_MESSAGES,
  type MediaSlot,
  maxBytesOf,
  mediaUrl,
  type PublicSiteMedia,
  type RecordMediaInput,
  SLOT_CONTENT_KEY,
  type SiteMediaItem,
  type SiteMediaView,
} from "./schemas.ts";

const UNIQUE_VIOLATION = "23505";

type MediaCtx = Pick<Context, "db" | "config" | "now" | "storage" | "logger">;
type MediaEditCtx = MediaCtx & ActivityActorContext;

/** Before a byte of an upload is read: the caller is the firm (the procedure), and the most it may send. */
export async function prepareMediaUpload(ctx: Pick<Context, "db">, input: { slot: MediaSlot }) {
  if (input.slot === "captions" && !(await findSiteMediaSlot(ctx.db, "video"))) {
    throw new TRPCError({ code: "CONFLICT", message: MEDIA_MESSAGES.captionsNeedVideo });
  }
  return { maxBytes: maxBytesOf(input.slot) };
}

/**
 * Records a stored, checked upload in its slot and points the site content at it, in one
 * transaction; the file it replaces is removed once that has committed. A new video drops the
 * old video's captions, which belong to it.
 */
export async function recordMediaUpload(ctx: MediaEditCtx, input: RecordMediaInput): Promise<SiteMediaItem> {
  const replaced = await recordInSlot(ctx, input).catch((err: unknown) => {
    // Two uploads into an empty slot at once: the second to commit finds the slot taken.
    if (isPgError(err, UNIQUE_VIOLATION)) throw new TRPCError({ code: "CONFLICT", message: MEDIA_MESSAGES.uploadedMeanwhile });
    throw err;
  });
  await removeStoredObjects(ctx.storage, ctx.logger, replaced);
  const row = await findSiteMediaSlot(ctx.db, input.slot);
  if (!row) throw new TRPCError({ code: "CONFLICT", message: MEDIA_MESSAGES.uploadedMeanwhile });
  return toItem(row);
}

function recordInSlot(ctx: MediaEditCtx, input: RecordMediaInput) {
  return ctx.db.transaction().execute(async (tx) => {
    const previous = [await replaceSiteMedia(tx, input, ctx.now())];
    if (input.slot === "video") previous.push(await deleteSiteMedia(tx, "captions"));
    const target = SLOT_CONTENT_KEY[input.slot];
    if (target) await upsertSiteValue(tx, { ...target, value: mediaUrl(input.name) }, ctx.now());
    await recordActivity(tx, ctx, {
      action: "site.update",
      client: null,
      detail: { media: input.slot, uploaded: input.original_filename, bytes: input.byte_size },
    });
    return previous.filter((row) => row !== undefined);
  });
}

/** Removes the slot's upload; the site shows its default again (for the video: no video). */
export async function removeMedia(ctx: MediaEditCtx, input: { slot: MediaSlot }) {
  const removed = await ctx.db.transaction().execute(async (tx) => {
    const rows = [await deleteSiteMedia(tx, input.slot)];
    if (input.slot === "video") rows.push(await deleteSiteMedia(tx, "captions"));
    const found = rows.filter((row) => row !== undefined);
    if (found.length === 0) return found;
    const target = SLOT_CONTENT_KEY[input.slot];
    // Only while the content still names the upload: a path the admin typed since stays.
    const main = found[0];
    if (target && main) {
      if ((await findSiteValue(tx, target.section, target.key)) === mediaUrl(main.name)) await deleteSiteValue(tx, target.section, target.key);
    }
    await recordActivity(tx, ctx, { action: "site.update", client: null, detail: { media: input.slot, removed: true } });
    return found;
  });
  if (removed.length === 0) throw new TRPCError({ code: "NOT_FOUND", message: MEDIA_MESSAGES.notFound });
  await removeStoredObjects(ctx.storage, ctx.logger, removed);
  return { success: true as const };
}

export async function siteMediaView(ctx: MediaCtx): Promise<SiteMediaView> {
  const [rows, settings, testimonials] = await Promise.all([listSiteMedia(ctx.db), readSiteSettings(ctx.db), testimonialsView(ctx)]);
  const confirmed = settings[SITE_SETTING.testimonialsConfirmedAt];
  return {
    items: Object.fromEntries(rows.map((row) => [row.slot, toItem(row)])),
    welcomeModal: settings[SITE_SETTING.welcomeModalOff] === undefined,
    testimonials: settings[SITE_SETTING.testimonialsHidden] === undefined,
    testimonialsAreSamples: testimonials.showsSamples,
    testimonialSamples: testimonials.samples,
    testimonialsConfirmedAt: confirmed ? new Date(confirmed) : null,
  };
}

export async function publicSiteMedia(ctx: Pick<Context, "db">): Promise<PublicSiteMedia> {
  const [rows, settings] = await Promise.all([listSiteMedia(ctx.db), readSiteSettings(ctx.db)]);
  const video = rows.find((row) => row.slot === "video");
  const captions = rows.find((row) => row.slot === "captions");
  return {
    video: video ? { src: mediaUrl(video.name), type: video.content_type, captions: captions ? mediaUrl(captions.name) : null } : null,
    welcomeModal: settings[SITE_SETTING.welcomeModalOff] === undefined,
    testimonials: settings[SITE_SETTING.testimonialsHidden] === undefined,
  };
}

export async function updateSiteOptions(ctx: MediaEditCtx, input: { welcomeModal?: boolean; testimonials?: boolean }) {
  await ctx.db.transaction().execute(async (tx) => {
    if (input.welcomeModal !== undefined) await writeSiteSetting(tx, SITE_SETTING.welcomeModalOff, input.welcomeModal ? null : "true", ctx.now());
    if (input.testimonials !== undefined) await writeSiteSetting(tx, SITE_SETTING.testimonialsHidden, input.testimonials ? null : "true", ctx.now());
    await recordActivity(tx, ctx, { action: "site.update", client: null, detail: { options: input } });
  });
  return siteMediaView(ctx);
}

/** The firm confirms one sample as words it may publish as its own (site/service.ts, confirmTestimonial). */
export async function confirmTestimonials(ctx: MediaEditCtx, input: { index: number }) {
  await confirmTestimonial(ctx, input);
  return siteMediaView(ctx);
}

/** The row behind a public media URL, for anyone: these files are the public site's. */
export async function findPublicMediaFile(ctx: Pick<Context, "db">, input: { name: string }) {
  const row = await findSiteMediaByName(ctx.db, input.name);
  if (!row) throw new TRPCError({ code: "NOT_FOUND", message: MEDIA_MESSAGES.notFound });
  return row;
}

function toItem(row: Awaited<ReturnType<typeof listSiteMedia>>[number]): SiteMediaItem {
  return {
    slot: row.slot,
    url: mediaUrl(row.name),
    content_type: row.content_type,
    byte_size: row.byte_size,
    width: row.width,
    height: row.height,
    original_filename: row.original_filename,
    uploaded_at: row.uploaded_at,
  };
}
