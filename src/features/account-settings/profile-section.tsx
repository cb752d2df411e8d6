import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { PasswordInput } from "@/components/ui/password-input.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import type { AccountOverview } from "@server/domains/profile/schemas.ts";
import { SettingsSection } from "./settings-section.tsx";
import { useChangeEmail } from "./use-change-email.ts";
import { useUpdateProfile } from "./use-update-profile.ts";

/** Name and email address. A new address takes effect once its confirmation link is followed. */
export function ProfileSection({ account }: { account: AccountOverview }) {
  return (
    <SettingsSection id="profile" title="Profile" description="Your name and the email address the firm writes to.">
      <NameForm name={account.user.name} />
      <EmailForm account={account} />
    </SettingsSection>
  );
}

function NameForm({ name: current }: { name: string }) {
  const [name, setName] = useState(current);
  const [error, setError] = useState<string | undefined>();
  const update = useUpdateProfile();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    update.mutate(
      { name },
      {
        onSuccess: () => {
          setError(undefined);
          toast.success("Name saved.");
        },
        onError: (err) => setError(errorDetail(err) ?? "The name could not be saved."),
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} aria-label="Name" className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
      <FormField id="profile-name" label="Full name" error={error}>
        <Input autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
      </FormField>
      <Button type="submit" variant="outline" disabled={update.isPending || name.trim() === current}>
        {update.isPending ? "Saving..." : "Save name"}
      </Button>
    </form>
  );
}

function EmailForm({ account }: { account: AccountOverview }) {
  const [email, setEmail] = useState("");
  const [proof, setProof] = useState("");
  const [error, setError] = useState<string | undefined>();
  const change = useChangeEmail();
  const proofLabel = account.has_password ? "Current password" : "Code from your authenticator app";
  const needsProof = account.has_password || account.two_factor.enabled;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    change.mutate(
      { new_email: email, ...(account.has_password ? { password: proof } : proof ? { code: proof } : {}) },
      {
        onSuccess: () => {
          setError(undefined);
          setProof("");
          toast.success(`We sent a confirmation link to ${email.trim()}.`);
          setEmail("");
        },
        onError: (err) => setError(errorDetail(err) ?? "The email address could not be changed."),
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} aria-label="Email address" className="grid gap-3 border-t pt-4">
      <p className="text-sm">
        Email: <span className="font-medium break-all">{account.user.email}</span>
      </p>
      {account.pending_email && (
        <p role="status" className="rounded-md border border-accent/30 bg-accent-soft px-3 py-2 text-sm text-accent-soft-foreground">
          Waiting for confirmation: open the link we sent to <span className="font-medium break-all">{account.pending_email}</span> (valid for 1
          hour).
        </p>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField id="profile-new-email" label="New email address" error={error} className="content-start">
          <Input type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </FormField>
        {needsProof && (
          <FormField id="profile-email-proof" label={proofLabel} className="content-start">
            {account.has_password ? (
              <PasswordInput autoComplete="current-password" value={proof} onChange={(e) => setProof(e.target.value)} />
            ) : (
              <Input autoComplete="one-time-code" inputMode="numeric" value={proof} onChange={(e) => setProof(e.target.value)} />
            )}
          </FormField>
        )}
      </div>
      <Button type="submit" variant="outline" className="w-fit" disabled={change.isPending || email.trim() === ""}>
        {change.isPending ? "Sending..." : "Change email"}
      </Button>
    </form>
  );
}
