import { Sparkles } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { isRetryableAdminLoadError } from "@/lib/admin-load-failure.ts";
import { SITE_CONTENT_KEYS, type SiteSection } from "../../../server/routers/site/schemas.ts";
import { SiteContentField } from "./site-content-field.tsx";
import { useAdminSiteContent } from "./use-admin-site-content.ts";
import { useInitSiteContent } from "./use-init-site-content.ts";

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
      image: { label: "Image", hint: "Path of an image shipped with the site, e.g. /images/hero.svg" },
    },
  },
  {
    section: "about",
    title: "About",
    fields: {
      title: { label: "Title" },
      description: { label: "Description", multiline: true },
      image: { label: "Image", hint: "Path of an image shipped with the site, e.g. /images/about.svg" },
    },
  },
  {
    section: "contact",
    title: "Contact",
    fields: {
      phone: { label: "Phone" },
      email: { label: "Email", hint: "Consultation requests are also sent to this address." },
      address: { label: "Address", multiline: true },
    },
  },
  {
    section: "company",
    title: "Company",
    fields: { name: { label: "Name" }, logo: { label: "Logo", hint: "Path of the logo, e.g. /images/logo.svg" } },
  },
  { section: "welcome", title: "Welcome video", fields: { video: { label: "Video", hint: "Path of the welcome video file" } } },
];

export function SiteContentEditor() {
  const content = useAdminSiteContent();
  const init = useInitSiteContent();

  if (!content.data) {
    if (!isRetryableAdminLoadError(content.error)) return <Spinner label="Loading site content…" />;
    return <LoadError message="Failed to load admin data" onRetry={() => void content.refetch()} isRetrying={content.isFetching} />;
  }
  const isEmpty = Object.keys(content.data).length === 0;

  return (
    <div className="grid gap-6">
      {isEmpty && (
        <Card className="border-dashed">
          <CardHeader>
            <CardTitle asChild>
              <h2>No site content stored yet</h2>
            </CardTitle>
            <CardDescription>
              The public site shows its built-in defaults. Initialize to store them here, then edit any field.
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

      <p className="text-sm text-muted-foreground">Changes are saved as you type and show on the public site after a reload.</p>

      <div className="grid gap-6 lg:grid-cols-2">
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
                    fieldKey={key}
                    label={field?.label ?? key}
                    hint={field?.hint}
                    multiline={field?.multiline}
                    storedValue={content.data[section]?.[key]?.value}
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
