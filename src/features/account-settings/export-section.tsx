import { FileArchive } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { SettingsSection } from "./settings-section.tsx";

/**
 * The current account's complete export (docs/safeguards.md, "Export"): one ZIP the browser
 * downloads as it is built, with every document in its folders, the messages, requests and
 * appointments, and a README saying what each file is.
 */
export function ExportSection() {
  return (
    <SettingsSection
      id="export"
      title="Export my data"
      description="Download everything of this account as one ZIP file: your documents in their folders, your messages with the firm, document requests and appointments (as spreadsheets and JSON), with a README explaining each file. Documents in the trash are not included."
    >
      <Button asChild variant="outline" className="w-fit">
        <a href="/api/account/export" download>
          <FileArchive aria-hidden="true" />
          Export my data
        </a>
      </Button>
    </SettingsSection>
  );
}
