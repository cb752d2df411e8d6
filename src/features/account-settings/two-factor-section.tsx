import { ShieldCheck, ShieldOff } from "lucide-react";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { BackupCodes } from "@/components/sign-in/backup-codes.tsx";
import { TotpSetupForm } from "@/components/sign-in/totp-setup-form.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { PasswordInput } from "@/components/ui/password-input.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatDate } from "@/lib/format.ts";
import type { AccountOverview, TwoFactorSetup } from "@server/domains/profile/schemas.ts";
import { useConfirmIdentity } from "./confirm-identity.tsx";
import { SettingsSection } from "./settings-section.tsx";
import { useDisableTwoFactor } from "./use-disable-two-factor.ts";
import { useEnableTwoFactor } from "./use-enable-two-factor.ts";
import { useRegenerateBackupCodes } from "./use-regenerate-backup-codes.ts";
import { useSetUpTwoFactor } from "./use-set-up-two-factor.ts";

/**
 * The authenticator app: set up (QR code and key, then a code), backup codes shown once and
 * renewable, and turning it off (password and a code) unless the account must keep it.
 */
export function TwoFactorSection({ account }: { account: AccountOverview }) {
  const { two_factor: state } = account;
  const [backupCodes, setBackupCodes] = useState<string[] | null>(null);

  return (
    <SettingsSection
      id="two-factor"
      title="Two-factor sign-in"
      description="A code from an authenticator app on your phone, asked for at every sign-in after your password."
    >
      {state.enabled ? (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
          <Badge variant="success">
            <ShieldCheck aria-hidden="true" />
            On
          </Badge>
          {state.enabled_at && <span>since {formatDate(state.enabled_at)}</span>}
          <span>
            {state.backup_codes_left} backup code{state.backup_codes_left === 1 ? "" : "s"} left
          </span>
        </div>
      ) : (
        <div className="flex items-center gap-2 text-sm">
          <Badge variant="muted">
            <ShieldOff aria-hidden="true" />
            Off
          </Badge>
          {state.required && <span className="text-destructive">Your account must have it: it is asked for at your next sign-in.</span>}
        </div>
      )}
      {backupCodes && <BackupCodes codes={backupCodes} />}
      {state.enabled ? <EnabledActions account={account} onNewCodes={setBackupCodes} /> : <SetUp onEnabled={(codes) => setBackupCodes(codes)} />}
    </SettingsSection>
  );
}

function SetUp({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const setUp = useSetUpTwoFactor();
  const enable = useEnableTwoFactor();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const confirm = useConfirmIdentity();

  const startSetUp = () =>
    setUp.mutate(undefined, {
      onSuccess: setSetup,
      onError: (err) => {
        if (!confirm.asked(err, startSetUp)) setProblem(errorDetail(err) ?? "Two-factor sign-in could not be set up.");
      },
    });

  const turnOn = (code: string) =>
    enable.mutate(
      { code },
      {
        onSuccess: (result) => {
          setProblem(null);
          setSetup(null);
          onEnabled(result.backup_codes);
          toast.success("Two-factor sign-in is on.");
        },
        onError: (err) => {
          if (!confirm.asked(err, () => turnOn(code))) setProblem(errorDetail(err) ?? "The code could not be checked.");
        },
      },
    );

  if (!setup) {
    return (
      <div className="grid gap-2">
        <Button className="w-fit" disabled={setUp.isPending} onClick={startSetUp}>
          {setUp.isPending ? "Preparing..." : "Set up two-factor sign-in"}
        </Button>
        <FormAlert message={problem} />
        {confirm.dialog}
      </div>
    );
  }
  return (
    <>
      <TotpSetupForm setup={setup} pending={enable.isPending} error={problem} submitLabel="Turn on two-factor sign-in" onSubmit={turnOn} />
      {confirm.dialog}
    </>
  );
}

function EnabledActions({ account, onNewCodes }: { account: AccountOverview; onNewCodes: (codes: string[] | null) => void }) {
  return (
    <div className="grid gap-4 border-t pt-4 md:grid-cols-2">
      <RegenerateForm onNewCodes={onNewCodes} />
      {account.two_factor.required ? (
        <p className="text-sm text-muted-foreground">
          {account.user.is_admin ? "Admin accounts must keep two-factor sign-in." : "The firm requires two-factor sign-in for every client."}
        </p>
      ) : (
        <DisableForm hasPassword={account.has_password} onDisabled={() => onNewCodes(null)} />
      )}
    </div>
  );
}

function RegenerateForm({ onNewCodes }: { onNewCodes: (codes: string[]) => void }) {
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const regenerate = useRegenerateBackupCodes();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    regenerate.mutate(
      { code },
      {
        onSuccess: (result) => {
          setProblem(undefined);
          setCode("");
          onNewCodes(result.backup_codes);
        },
        onError: (err) => setProblem(errorDetail(err) ?? "New backup codes could not be made."),
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} aria-label="New backup codes" className="grid content-start gap-3">
      <h3 className="font-medium">New backup codes</h3>
      <p className="text-sm text-muted-foreground">Your old backup codes stop working.</p>
      <FormField id="regenerate-code" label="Code from your authenticator app" error={problem}>
        <Input autoComplete="one-time-code" inputMode="numeric" value={code} onChange={(e) => setCode(e.target.value)} />
      </FormField>
      <Button type="submit" variant="outline" className="w-fit" disabled={regenerate.isPending || code.trim() === ""}>
        {regenerate.isPending ? "Making codes..." : "Get new backup codes"}
      </Button>
    </form>
  );
}

function DisableForm({ hasPassword, onDisabled }: { hasPassword: boolean; onDisabled: () => void }) {
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const disable = useDisableTwoFactor();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    disable.mutate(
      { code, ...(hasPassword ? { password } : {}) },
      {
        onSuccess: () => {
          setProblem(null);
          onDisabled();
          toast.success("Two-factor sign-in is off.");
        },
        onError: (err) => setProblem(errorDetail(err) ?? "Two-factor sign-in could not be turned off."),
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} aria-label="Turn off two-factor sign-in" className="grid content-start gap-3">
      <h3 className="font-medium">Turn off</h3>
      {hasPassword && (
        <FormField id="disable-password" label="Current password">
          <PasswordInput autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </FormField>
      )}
      <FormField id="disable-code" label="Code from your authenticator app">
        <Input autoComplete="one-time-code" inputMode="numeric" value={code} onChange={(e) => setCode(e.target.value)} />
      </FormField>
      <FormAlert message={problem} />
      <Button type="submit" variant="ghost-destructive" className="w-fit" disabled={disable.isPending || code.trim() === ""}>
        {disable.isPending ? "Turning off..." : "Turn off two-factor sign-in"}
      </Button>
    </form>
  );
}
