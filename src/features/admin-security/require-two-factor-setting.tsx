import { ShieldCheck } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { useSecuritySettings } from "./use-security-settings.ts";
import { useUpdateSecuritySettings } from "./use-update-security-settings.ts";

/** The firm's switch: every client must have two-factor sign-in; those without it set it up at their next sign-in. */
export function RequireTwoFactorSetting() {
  const settings = useSecuritySettings();
  const update = useUpdateSecuritySettings();
  // The box shows the choice at once, while it is being saved.
  const [saving, setSaving] = useState<boolean | null>(null);

  return (
    <section aria-labelledby="security-settings-heading" className="grid gap-4 rounded-xl border bg-card p-6">
      <div className="flex items-start gap-3">
        <ShieldCheck aria-hidden="true" className="mt-1 size-5 shrink-0 text-accent" />
        <div className="grid gap-1">
          <h2 id="security-settings-heading" className="text-lg font-semibold">
            Client sign-in
          </h2>
          <p className="text-sm text-muted-foreground">
            Clients without two-factor sign-in set it up at their next sign-in, and cannot turn it off while this is on. Admins always have it.
          </p>
        </div>
      </div>
      {settings.isPending ? (
        <Spinner label="Loading the security settings…" />
      ) : settings.data ? (
        <label className="flex w-fit cursor-pointer items-center gap-3 text-sm font-medium">
          <input
            type="checkbox"
            className="size-5 cursor-pointer accent-[var(--color-accent)]"
            checked={saving ?? settings.data.require_client_two_factor}
            disabled={saving !== null}
            onChange={(event) => {
              setSaving(event.target.checked);
              update.mutate(
                { require_client_two_factor: event.target.checked },
                {
                  onSuccess: (saved) =>
                    toast.success(
                      saved.require_client_two_factor ? "Every client now needs two-factor sign-in." : "Two-factor sign-in is optional for clients.",
                    ),
                  onError: (err) => toast.error(errorDetail(err) ?? "The setting could not be saved."),
                  onSettled: () => setSaving(null),
                },
              );
            }}
          />
          Require two-factor sign-in for all clients
        </label>
      ) : (
        <LoadError message="Failed to load the security settings" onRetry={() => void settings.refetch()} isRetrying={settings.isFetching} />
      )}
    </section>
  );
}
