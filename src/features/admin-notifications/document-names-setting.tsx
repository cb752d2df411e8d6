import { MailCheck } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { SettingsSection } from "@/components/settings-section.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { useNotificationSettings } from "./use-notification-settings.ts";
import { useUpdateNotificationSettings } from "./use-update-notification-settings.ts";

/** The firm's switch: whether the emails about uploads (to clients and to the firm) name the documents and their folders. */
export function DocumentNamesSetting() {
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();
  // The box shows the choice at once, while it is being saved.
  const [saving, setSaving] = useState<boolean | null>(null);

  return (
    <SettingsSection
      headingId="notification-settings-heading"
      icon={MailCheck}
      title="Upload emails"
      description="Clients are emailed when the firm shares documents with them, and the firm gets a digest of what clients upload. The emails never carry the documents; turned off, they do not name them either, only how many there are."
    >
      {settings.isPending ? (
        <Spinner label="Loading the email settings…" />
      ) : settings.data ? (
        <label className="flex w-fit cursor-pointer items-center gap-3 text-sm font-medium">
          <input
            type="checkbox"
            className="size-5 cursor-pointer accent-[var(--color-accent)]"
            checked={saving ?? settings.data.include_document_names_in_emails}
            disabled={saving !== null}
            onChange={(event) => {
              setSaving(event.target.checked);
              update.mutate(
                { include_document_names_in_emails: event.target.checked },
                {
                  onSuccess: (saved) =>
                    toast.success(saved.include_document_names_in_emails ? "Emails now name the documents." : "Emails no longer name the documents."),
                  onError: (err) => toast.error(errorDetail(err) ?? "The setting could not be saved."),
                  onSettled: () => setSaving(null),
                },
              );
            }}
          />
          Include document names in emails
        </label>
      ) : (
        <LoadError message="Failed to load the email settings" onRetry={() => void settings.refetch()} isRetrying={settings.isFetching} />
      )}
    </SettingsSection>
  );
}
