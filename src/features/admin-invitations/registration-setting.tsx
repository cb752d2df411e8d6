import { UserCheck } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { SettingsSection } from "@/components/settings-section.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import type { RegistrationMode } from "@server/domains/invitations/schemas.ts";
import { useRegistrationSetting } from "./use-registration-setting.ts";
import { useUpdateRegistrationSetting } from "./use-update-registration-setting.ts";

const CHOICES: Array<{ value: RegistrationMode; label: string; hint: string }> = [
  { value: "open", label: "Anyone can register", hint: "The Register tab of the Client Portal dialog creates accounts." },
  {
    value: "invite_only",
    label: "By invitation only",
    hint: "Only clients you invite from the Users tab get an account, with a password or with Google.",
  },
];

/** The Site tab's choice of who may open a client account. */
export function RegistrationSetting() {
  const setting = useRegistrationSetting();
  const update = useUpdateRegistrationSetting();
  // The choice shows at once, while it is being saved.
  const [saving, setSaving] = useState<RegistrationMode | null>(null);
  const current = saving ?? setting.data?.registration;

  function choose(registration: RegistrationMode) {
    setSaving(registration);
    update.mutate(
      { registration },
      {
        onSuccess: (saved) =>
          toast.success(saved.registration === "invite_only" ? "Registration is now by invitation only." : "Anyone can register again."),
        onError: (err) => toast.error(errorDetail(err) ?? "The setting could not be saved."),
        onSettled: () => setSaving(null),
      },
    );
  }

  return (
    <SettingsSection
      headingId="registration-setting-heading"
      icon={UserCheck}
      title="Client registration"
      description="Who may open a client account. Existing accounts sign in either way."
    >
      {setting.isPending ? (
        <Spinner label="Loading the registration setting…" />
      ) : setting.data ? (
        <fieldset className="grid gap-3" disabled={saving !== null}>
          <legend className="sr-only">Client registration</legend>
          {CHOICES.map((choice) => (
            <label key={choice.value} className="flex cursor-pointer items-start gap-3 text-sm">
              <input
                type="radio"
                name="registration"
                value={choice.value}
                className="mt-0.5 size-5 shrink-0 cursor-pointer accent-[var(--color-accent)]"
                checked={current === choice.value}
                onChange={() => choose(choice.value)}
              />
              <span className="grid gap-0.5">
                <span className="font-medium">{choice.label}</span>
                <span className="text-muted-foreground">{choice.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
      ) : (
        <LoadError message="Failed to load the registration setting" onRetry={() => void setting.refetch()} isRetrying={setting.isFetching} />
      )}
    </SettingsSection>
  );
}
