import { browserSupportsWebAuthn } from "@simplewebauthn/browser";
import { KeyRound, Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { passkeyPromptDismissed } from "@/components/sign-in/passkey-sign-in-button.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatDate } from "@/lib/format.ts";
import { useConfirmIdentity } from "./confirm-identity.tsx";
import { SettingsSection } from "./settings-section.tsx";
import { useDeletePasskey } from "./use-delete-passkey.ts";
import { usePasskeys } from "./use-passkeys.ts";
import { useRegisterPasskey } from "./use-register-passkey.ts";

/** Passkeys sign in without a password or a code: the device's lock (fingerprint, face, PIN) or a security key. */
export function PasskeysSection() {
  const passkeys = usePasskeys();
  const remove = useDeletePasskey();

  return (
    <SettingsSection
      id="passkeys"
      title="Passkeys"
      description="Sign in with your fingerprint, face or device PIN instead of a password and a code. A passkey stays on your device or in its password manager."
    >
      {passkeys.isPending ? (
        <Spinner label="Loading passkeys…" />
      ) : passkeys.data && passkeys.data.length > 0 ? (
        <ul aria-label="Passkeys" className="divide-y rounded-lg border">
          {passkeys.data.map((passkey) => (
            <li key={passkey.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
              <div className="flex min-w-0 items-center gap-3">
                <KeyRound aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                <div className="min-w-0">
                  <p className="truncate font-medium">{passkey.name}</p>
                  <p className="text-xs text-muted-foreground tabular-nums">
                    Added {formatDate(passkey.created_at)} · {passkey.last_used_at ? `last used ${formatDate(passkey.last_used_at)}` : "not used yet"}
                  </p>
                </div>
              </div>
              <ConfirmAction
                trigger={
                  <Button variant="ghost-destructive" size="sm" aria-label={`Remove passkey ${passkey.name}`}>
                    <Trash2 aria-hidden="true" />
                    Remove
                  </Button>
                }
                title="Remove passkey"
                question={`Remove the passkey “${passkey.name}”? It will no longer sign in to your account.`}
                confirmLabel="Remove"
                onConfirm={() =>
                  remove.mutate(
                    { id: passkey.id },
                    {
                      onSuccess: () => toast.success("Passkey removed."),
                      onError: (err) => toast.error(errorDetail(err) ?? "The passkey could not be removed."),
                    },
                  )
                }
              />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">No passkeys yet.</p>
      )}
      <AddPasskeyForm />
    </SettingsSection>
  );
}

function AddPasskeyForm() {
  const [supported] = useState(() => browserSupportsWebAuthn());
  const [name, setName] = useState("");
  const [error, setError] = useState<string | undefined>();
  const register = useRegisterPasskey();
  const confirm = useConfirmIdentity();
  if (!supported) return <p className="text-sm text-muted-foreground">This browser cannot make passkeys.</p>;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim()) {
      setError("Please name the passkey");
      return;
    }
    add(name.trim());
  }

  function add(passkeyName: string) {
    register.mutate(passkeyName, {
      onSuccess: () => {
        setError(undefined);
        setName("");
        toast.success("Passkey added.");
      },
      onError: (err) => {
        if (confirm.asked(err, () => add(passkeyName))) return;
        setError(
          passkeyPromptDismissed(err) ? "No passkey was made: the prompt was closed." : (errorDetail(err) ?? "The passkey could not be added."),
        );
      },
    });
  }

  // The dialog stays outside the form: its own submit would bubble through the portal to this one.
  return (
    <>
      <form noValidate onSubmit={submit} aria-label="Add a passkey" className="grid gap-3 border-t pt-4 sm:grid-cols-[1fr_auto] sm:items-start">
        <FormField id="passkey-name" label="Passkey name" hint="So you can tell it apart, like “Work laptop”." error={error}>
          <Input maxLength={60} value={name} onChange={(e) => setName(e.target.value)} />
        </FormField>
        {/* Level with the input, below its label. */}
        <Button type="submit" variant="outline" className="sm:mt-7" disabled={register.isPending}>
          {register.isPending ? "Waiting for your device..." : "Add a passkey"}
        </Button>
      </form>
      {confirm.dialog}
    </>
  );
}
