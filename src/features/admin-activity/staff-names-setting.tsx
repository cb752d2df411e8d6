import { UserRound } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { useActivitySettings } from "./use-activity-settings.ts";
import { useUpdateActivitySettings } from "./use-update-activity-settings.ts";

/** The firm's switch: whether a client's own activity names the staff member who acted, or says "Your firm". */
export function StaffNamesSetting() {
  const settings = useActivitySettings();
  const update = useUpdateActivitySettings();
  // The box shows the choice at once, while it is being saved.
  const [saving, setSaving] = useState<boolean | null>(null);

  return (
    <section aria-labelledby="activity-settings-heading" className="grid gap-4 rounded-xl border bg-card p-6">
      <div className="flex items-start gap-3">
        <UserRound aria-hidden="true" className="mt-1 size-5 shrink-0 text-accent" />
        <div className="grid gap-1">
          <h2 id="activity-settings-heading" className="text-lg font-semibold">
            Staff in clients&apos; activity
          </h2>
          <p className="text-sm text-muted-foreground">
            Clients see in their activity when the firm opened or changed their things. It says &ldquo;Your firm&rdquo;; turned on, it gives the staff
            member&apos;s name instead. Login names are never shown.
          </p>
        </div>
      </div>
      {settings.isPending ? (
        <Spinner label="Loading the activity settings…" />
      ) : settings.data ? (
        <label className="flex w-fit cursor-pointer items-center gap-3 text-sm font-medium">
          <input
            type="checkbox"
            className="size-5 cursor-pointer accent-[var(--color-accent)]"
            checked={saving ?? settings.data.staff_names_for_clients}
            disabled={saving !== null}
            onChange={(event) => {
              setSaving(event.target.checked);
              update.mutate(
                { staff_names_for_clients: event.target.checked },
                {
                  onSuccess: (saved) =>
                    toast.success(saved.staff_names_for_clients ? "Clients now see staff names." : "Clients now see \u201cYour firm\u201d."),
                  onError: (err) => toast.error(errorDetail(err) ?? "The setting could not be saved."),
                  onSettled: () => setSaving(null),
                },
              );
            }}
          />
          Show staff names to clients
        </label>
      ) : (
        <LoadError message="Failed to load the activity settings" onRetry={() => void settings.refetch()} isRetrying={settings.isFetching} />
      )}
    </section>
  );
}
