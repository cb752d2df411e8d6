import { Scale } from "lucide-react";
import { Link } from "react-router";
import { SettingsSection } from "@/components/settings-section.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { SiteContentField } from "./site-content-field.tsx";
import { useSiteContentEditor } from "./use-site-content-editor.ts";

const FORMAT_HINT = 'A blank line starts a new paragraph, "## " a heading and "- " a list item. Empty: the built-in text.';

/** The texts of /privacy and /terms (site content legal.privacy and legal.terms), linked from the site's footer. */
export function LegalPagesEditor() {
  const live = useSiteContentEditor();
  return (
    <SettingsSection
      headingId="legal-pages-heading"
      icon={Scale}
      title="Legal pages"
      description={
        <>
          The privacy notice a tax practice gives its clients under the GLBA, and the terms of the website and portal. The site&apos;s footer links to
          both:{" "}
          <Link to="/privacy" className="underline underline-offset-4">
            Privacy Notice
          </Link>{" "}
          and{" "}
          <Link to="/terms" className="underline underline-offset-4">
            Terms of Use
          </Link>
          .
        </>
      }
    >
      {live.data ? (
        <div className="grid gap-6">
          <SiteContentField
            section="legal"
            sectionTitle="Legal pages"
            fieldKey="privacy"
            label="Privacy Notice"
            multiline
            rows={14}
            hint={FORMAT_HINT}
            entry={live.data.legal.privacy!}
          />
          <SiteContentField
            section="legal"
            sectionTitle="Legal pages"
            fieldKey="terms"
            label="Terms of Use"
            multiline
            rows={14}
            hint={FORMAT_HINT}
            entry={live.data.legal.terms!}
          />
        </div>
      ) : (
        <Spinner label="Loading the legal pages…" />
      )}
    </SettingsSection>
  );
}
