import { FileArchive } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDownload } from "@/components/ui/confirm-download.tsx";
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
      {/* Asked first: the file holds what a thief wants most (issue 48). */}
      <ConfirmDownload
        trigger={
          <Button variant="outline" className="w-fit">
            <FileArchive aria-hidden="true" />
            Export my data
          </Button>
        }
        title="Download your data?"
        contents={
          <>
            <p>
              The ZIP file holds your tax documents (which carry Social Security numbers and bank account numbers), your organizer answers (their
              sensitive ones masked), your messages, requests and appointments.
            </p>
            <p>Keep it somewhere safe, and do not download it on a shared or public computer.</p>
          </>
        }
        href="/api/account/export"
        downloadLabel="Download the ZIP"
      />
    </SettingsSection>
  );
}
