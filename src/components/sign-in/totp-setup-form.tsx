import { type FormEvent, Fragment, useState } from "react";
import { Check, Copy, Smartphone } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import type { TwoFactorSetup } from "@server/domains/profile/schemas.ts";

type TotpSetupFormProps = {
  setup: TwoFactorSetup;
  onSubmit: (code: string) => void;
  pending: boolean;
  error: string | null;
  submitLabel: string;
  /** Makes the ids unique when two forms could be on one page. */
  idPrefix?: string;
};

/** The key as a QR code and as text, and the first code from the app, which turns two-factor sign-in on. */
export function TotpSetupForm({ setup, onSubmit, pending, error, submitLabel, idPrefix = "totp-setup" }: TotpSetupFormProps) {
  const [code, setCode] = useState("");
  // Groups of four that a line may break between, never inside (a phone broke "W6I" from its "0").
  const groups = setup.secret.match(/.{1,4}/g) ?? [setup.secret];

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit(code.trim());
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-4" aria-label="Set up two-factor sign-in">
      <ol className="grid list-decimal gap-2 pl-5 text-sm text-muted-foreground">
        <li>Open an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password, Authy…).</li>
        <li>Scan the QR code, or on this phone tap Add to authenticator app, or copy the setup key into the app.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        <img
          src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qr_svg)}`}
          alt="QR code for your authenticator app"
          width={176}
          height={176}
          className="size-44 shrink-0 rounded-md border bg-white p-1"
        />
        <div className="grid min-w-0 gap-1 text-sm">
          <span id={`${idPrefix}-key-label`} className="font-medium">
            Setup key
          </span>
          <code aria-labelledby={`${idPrefix}-key-label`} data-testid="totp-secret" data-secret={setup.secret} className="font-mono tabular-nums">
            {groups.map((group, i) => (
              <Fragment key={i}>
                {i > 0 && " "}
                <span className="whitespace-nowrap">{group}</span>
              </Fragment>
            ))}
          </code>
          <div className="mt-1 flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm">
              {/* Opens the authenticator app on the phone this page is on, which scanning cannot. */}
              <a href={setup.otpauth_url}>
                <Smartphone aria-hidden="true" />
                Add to authenticator app
              </a>
            </Button>
            <CopyKeyButton secret={setup.secret} />
          </div>
          <span className="text-xs text-muted-foreground">Time-based, 6 digits, every 30 seconds.</span>
        </div>
      </div>
      <FormField id={`${idPrefix}-code`} label="Code from the app" error={error ?? undefined}>
        <Input
          autoComplete="one-time-code"
          inputMode="numeric"
          spellCheck={false}
          maxLength={32}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </FormField>
      <Button type="submit" className="sm:w-fit" disabled={pending || code.trim() === ""}>
        {pending ? "Checking..." : submitLabel}
      </Button>
    </form>
  );
}

/** Copies the key without its spaces; says so in place (and to screen readers), or how to copy it by hand. */
function CopyKeyButton({ secret }: { secret: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = () => {
    navigator.clipboard.writeText(secret).then(
      () => setState("copied"),
      () => setState("failed"),
    );
  };
  return (
    <>
      <Button variant="outline" size="sm" onClick={copy}>
        {state === "copied" ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
        {state === "copied" ? "Key copied" : "Copy key"}
      </Button>
      <span role="status" className="basis-full text-xs text-muted-foreground empty:hidden">
        {state === "copied"
          ? "The setup key is copied. Paste it into your authenticator app."
          : state === "failed"
            ? "The key could not be copied; select it above and copy it."
            : ""}
      </span>
    </>
  );
}
