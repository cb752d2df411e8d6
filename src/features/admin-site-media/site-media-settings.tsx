import { type ChangeEvent, useId, useState } from "react";
import { Film, ImageUp, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatFileSizeKB } from "@/lib/format.ts";
import { SHIPPED_IMAGES, siteImageSrc } from "@/lib/site-image.ts";
import { trpc } from "@/lib/trpc.ts";
import { type ImageSlot, IMAGE_SLOTS, type MediaSlot, SLOT_ACCEPT, SLOT_LABEL, type SiteMediaItem } from "@server/domains/site-media/schemas.ts";
import { useRemoveSiteMedia, useSiteMedia, useUpdateSiteOptions, useUploadSiteMedia } from "./use-site-media.ts";
import { SettingCheckbox } from "./setting-checkbox.tsx";

const IMAGE_HINT: Record<ImageSlot, string> = {
  logo: "Shown beside the firm's name in the header. Square works best.",
  hero: "The large picture at the top of the home page.",
  about: "The picture beside the About text.",
};
const UPLOAD_LABEL: Record<MediaSlot, string> = {
  logo: "Upload a logo",
  hero: "Upload a hero image",
  about: "Upload an about image",
  video: "Upload a video",
  captions: "Upload captions",
};
const SHIPPED: Record<ImageSlot, string> = { logo: SHIPPED_IMAGES.logo, hero: SHIPPED_IMAGES.hero, about: SHIPPED_IMAGES.about };

/**
 * The Site tab's uploads: the logo, the hero and about pictures (PNG, JPEG or WebP, made into
 * WebP by the server), and the welcome video with its captions and the modal's switch.
 */
export function SiteMediaSettings() {
  const media = useSiteMedia();
  // What the site shows now for each picture: an upload, a path typed in the editor, or the built-in one.
  const content = trpc.admin.siteContent.editor.useQuery();
  if (!media.data) {
    if (media.isPending) return <Spinner label="Loading the site's pictures…" />;
    return <LoadError message="Failed to load the site's pictures" onRetry={() => void media.refetch()} isRetrying={media.isFetching} />;
  }
  const shown: Record<ImageSlot, string | undefined> = {
    logo: content.data?.company.logo?.value,
    hero: content.data?.hero.image?.value,
    about: content.data?.about.image?.value,
  };
  return (
    <>
      <section aria-labelledby="site-pictures-heading" className="grid gap-4 rounded-xl border bg-card p-6">
        <div className="flex items-start gap-3">
          <ImageUp aria-hidden="true" className="mt-1 size-5 shrink-0 text-accent" />
          <div className="grid gap-1">
            <h2 id="site-pictures-heading" className="text-lg font-semibold">
              Logo and pictures
            </h2>
            <p className="text-sm text-muted-foreground">
              PNG, JPEG or WebP, at most 10 MB. The server resizes and compresses each picture and removes its metadata (such as a photo&apos;s
              location).
            </p>
          </div>
        </div>
        <div className="grid gap-4 md:grid-cols-3">
          {IMAGE_SLOTS.map((slot) => (
            <ImageSlotCard key={slot} slot={slot} item={media.data.items[slot]} shownSrc={siteImageSrc(shown[slot], SHIPPED[slot])} />
          ))}
        </div>
      </section>
      <WelcomeVideoSettings items={media.data.items} welcomeModal={media.data.welcomeModal} />
    </>
  );
}

function ImageSlotCard({ slot, item, shownSrc }: { slot: ImageSlot; item: SiteMediaItem | undefined; shownSrc: string }) {
  const label = SLOT_LABEL[slot];
  return (
    <div className="grid content-start gap-3 rounded-lg border p-4">
      <h3 className="font-medium">{label}</h3>
      <div className="grid h-32 place-items-center overflow-hidden rounded-md border bg-muted/50">
        <img src={shownSrc} alt={`${label} preview`} className={slot === "logo" ? "size-20 object-contain" : "size-full object-cover"} />
      </div>
      <p className="text-sm text-muted-foreground">
        {item
          ? `Uploaded ${item.original_filename}: ${item.width} × ${item.height}, ${formatFileSizeKB(item.byte_size)}`
          : "No picture uploaded: the site shows the built-in one."}
      </p>
      <p className="text-xs text-muted-foreground">{IMAGE_HINT[slot]}</p>
      <UploadControls slot={slot} item={item} />
    </div>
  );
}

/** A file chooser that uploads at once, and Remove for what is uploaded; refusals are read out. */
function UploadControls({ slot, item, disabled = false }: { slot: MediaSlot; item: SiteMediaItem | undefined; disabled?: boolean }) {
  const id = useId();
  const upload = useUploadSiteMedia(slot);
  const remove = useRemoveSiteMedia();
  const [error, setError] = useState<string | null>(null);
  const label = SLOT_LABEL[slot];

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setError(null);
    upload.mutate(file, {
      onSuccess: () => toast.success(`${label} uploaded.`),
      onError: (err) => setError(err.message),
    });
  }

  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {item ? `Replace the ${label.toLowerCase()}` : UPLOAD_LABEL[slot]}
      </label>
      <input
        id={id}
        type="file"
        accept={SLOT_ACCEPT[slot]}
        disabled={disabled || upload.isPending}
        onChange={choose}
        className="w-full min-w-0 text-sm file:mr-3 file:h-9 file:cursor-pointer file:rounded-md file:border file:bg-background file:px-3 file:text-sm file:font-medium disabled:opacity-60"
      />
      {upload.isPending && <Spinner label={`Uploading the ${label.toLowerCase()}…`} />}
      <p role="alert" className="text-sm text-destructive empty:hidden">
        {error}
      </p>
      {item && (
        <Button
          variant="ghost-destructive"
          size="sm"
          className="justify-self-start"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(
              { slot },
              {
                onSuccess: () => toast.success(`${label} removed.`),
                onError: (err) => setError(errorDetail(err) ?? `The ${label.toLowerCase()} could not be removed.`),
              },
            )
          }
        >
          <Trash2 aria-hidden="true" />
          Remove {label.toLowerCase()}
        </Button>
      )}
    </div>
  );
}

function WelcomeVideoSettings({ items, welcomeModal }: { items: Partial<Record<MediaSlot, SiteMediaItem>>; welcomeModal: boolean }) {
  const options = useUpdateSiteOptions();
  // The switch shows its new state while it is saved and the view is read again.
  const [saving, setSaving] = useState<boolean | null>(null);
  const video = items.video;
  const captions = items.captions;
  return (
    <section aria-labelledby="site-video-heading" className="grid gap-4 rounded-xl border bg-card p-6">
      <div className="flex items-start gap-3">
        <Film aria-hidden="true" className="mt-1 size-5 shrink-0 text-accent" />
        <div className="grid gap-1">
          <h2 id="site-video-heading" className="text-lg font-semibold">
            Welcome video file
          </h2>
          <p className="text-sm text-muted-foreground">
            {video
              ? "Play in the welcome modal plays this video."
              : "No video is set. The welcome modal shows your welcome text with a simulated playback; upload your video (MP4 or WebM, at most 200 MB) or turn the modal off."}
          </p>
        </div>
      </div>
      <SettingCheckbox
        title="Show the welcome modal on a first visit"
        description="About 1.5 seconds after a visitor first opens the home page; Skip or Play keeps it away after that."
        checked={saving ?? welcomeModal}
        disabled={saving !== null}
        onChange={(next) => {
          setSaving(next);
          options
            .mutateAsync({ welcomeModal: next })
            .then(() => toast.success(next ? "The welcome modal is on." : "The welcome modal is off."))
            .catch((err: unknown) => toast.error(errorDetail(err) ?? "The setting could not be saved."))
            .finally(() => setSaving(null));
        }}
      />
      <div className="grid gap-4 md:grid-cols-2">
        <div className="grid content-start gap-3 rounded-lg border p-4">
          <h3 className="font-medium">Video</h3>
          {video && (
            <>
              {/* The admin's own preview: the captions, when uploaded, go with it. */}
              <video controls preload="metadata" className="aspect-video w-full rounded-md bg-black" aria-label="Welcome video preview">
                <source src={video.url} type={video.content_type} />
                {captions && <track kind="captions" src={captions.url} srcLang="en" label="English" default />}
              </video>
              <p className="text-sm text-muted-foreground">
                {video.original_filename}, {formatFileSizeKB(video.byte_size)}
              </p>
            </>
          )}
          <UploadControls slot="video" item={video} />
        </div>
        <div className="grid content-start gap-3 rounded-lg border p-4">
          <h3 className="font-medium">Captions</h3>
          <p className="text-sm text-muted-foreground">
            {captions
              ? `${captions.original_filename}, ${formatFileSizeKB(captions.byte_size)}`
              : video
                ? "No captions yet. A WebVTT file (.vtt) lets visitors who cannot hear the video read it."
                : "Upload the video first, then its captions (WebVTT, .vtt)."}
          </p>
          <UploadControls slot="captions" item={captions} disabled={!video} />
        </div>
      </div>
    </section>
  );
}
