import { Sparkles } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { isRetryableAdminLoadError } from "@/lib/admin-load-failure.ts";
import { SITE_CONTENT_KEYS, type SiteSection } from "@server/domains/site/schemas.ts";
import { SiteContentField } from "./site-content-field.tsx";
import { useAdminSiteContent } from "./use-admin-site-content.ts";
import { useInitSiteContent } from "./use-init-site-content.ts";
import { useSiteContentEditor } from "./use-site-content-editor.ts";

type FieldSpec = { label: string; multiline?: boolean; hint?: string };

/** How each key of the spec's table is edited; testimonials.data has its own editor. */
const SECTIONS: Array<{ section: Exclude<SiteSection, "testimonials">; title: string; fields: Record<string, FieldSpec> }> = [
  {
    section: "hero",
    title: "Hero",
    fields: {
      title: { label: "Title" },
      subtitle: { label: "Subtitle" },
      description: { label: "Description", multiline: true },
      image: { label: "Image", hint: "Upload a picture under Logo and pictures, or type the path of one on this site, e.g. /images/hero.svg" },
    },
  },
  {
    section: "about",
    title: "About",
    fields: {
      title: { label: "Title" },
      description: { label: "Description", multiline: true },
      image: { label: "Image", hint: "Upload a picture under Logo and pictures, or type the path of one on this site, e.g. /images/about.svg" },
    },
  },
  {
    section: "contact",
    title: "Contact",
    fields: {
      phone: { label: "Phone" },
      email: { label: "Email", hint: "Consultation requests are also sent to this address." },
      address: { label: "Address", multiline: true },
      hours: {
        label: "Hours",
        hint: "Empty: the site says your weekly availability (Appointments tab) in words. Type your own words to show them instead.",
      },
    },
  },
  {
    section: "company",
    title: "Company",
    fields: {
      name: { label: "Name" },
      logo: { label: "Logo", hint: "Upload a logo under Logo and pictures, or type the path of one on this site, e.g. /images/logo.svg" },
    },
  },
  { section: "welcome", title: "Welcome video", fields: { video: { label: "Video", hint: "Set by uploading a video under Welcome video file" } } },
];

/**
 * Every key as the public site shows it, the defaults marked. Initialize (the spec's button,
 * offered while nothing is stored) is not needed to edit: it copies the defaults into storage.
 */
export function SiteContentEditor() {
  const live = useSiteContentEditor();
  const stored = useAdminSiteContent();
  const init = useInitSiteContent();

  if (!live.data) {
    if (!isRetryableAdminLoadError(live.error)) return <Spinner label="Loading site content…" />;
    return <LoadError message="Failed to load admin data" onRetry={() => void live.refetch()} isRetrying={live.isFetching} />;
  }
  const isEmpty = stored.data !== undefined && Object.keys(stored.data).length === 0;

  return (
    <div className="grid gap-6">
      {isEmpty && (
        <Card className="border-dashed">
          <CardHeader>
            <CardTitle asChild>
              <h2>No site content stored yet</h2>
            </CardTitle>
            <CardDescription>
              The public site shows the built-in defaults, marked Default below; edit any field to change it. Initialize stores all the defaults as
              your own content, so a later update of the built-in texts leaves your site as it is.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Button variant="accent" disabled={init.isPending} onClick={() => init.mutate()}>
              <Sparkles aria-hidden="true" />
              {init.isPending ? "Initializing..." : "Initialize Site Content"}
            </Button>
          </CardContent>
        </Card>
      )}

      <p className="text-sm text-muted-foreground">
        Changes are saved as you type and show on the public site after a reload. An emptied field shows its default.
      </p>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        {SECTIONS.map(({ section, title, fields }) => (
          <Card key={section}>
            <CardHeader>
              <CardTitle asChild>
                <h2>{title}</h2>
              </CardTitle>
            </CardHeader>
            <CardContent className="grid gap-4">
              {SITE_CONTENT_KEYS[section].map((key) => {
                const field = fields[key];
                return (
                  <SiteContentField
                    key={key}
                    section={section}
                    sectionTitle={title}
                    fieldKey={key}
                    label={field?.label ?? key}
                    hint={field?.hint}
                    multiline={field?.multiline}
                    entry={live.data[section][key]!}
                  />
                );
              })}
            </CardContent>
          </Card>
        ))}
      </div>
    </div>
  );
}
