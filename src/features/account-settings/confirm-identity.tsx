import { type FormEvent, type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { PasswordInput } from "@/components/ui/password-input.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { CONFIRM_IT_IS_YOU } from "@server/domains/auth/messages.ts";
import { useAccount } from "./use-account.ts";
import { useProveIdentity } from "./use-prove-identity.ts";

/**
 * Adding a passkey or turning two-factor sign-in on needs the password or a code shown in the last
 * 10 minutes (docs/security.md, Round 3). A section hands its refusals to `asked(err, retry)`: when
 * the server asked for that proof, the dialog opens, and once the proof is accepted the action runs
 * again. `dialog` is rendered by the section.
 */
export function useConfirmIdentity(): { dialog: ReactNode; asked: (err: unknown, retry: () => void) => boolean } {
  const [retry, setRetry] = useState<(() => void) | null>(null);
  const asked = (err: unknown, next: () => void) => {
    if (errorDetail(err) !== CONFIRM_IT_IS_YOU) return false;
    setRetry(() => next);
    return true;
  };
  const dialog = (
    <ConfirmIdentityDialog
      open={retry !== null}
      onClose={() => setRetry(null)}
      onConfirmed={() => {
        const next = retry;
        setRetry(null);
        next?.();
      }}
    />
  );
  return { dialog, asked };
}

function ConfirmIdentityDialog({ open, onClose, onConfirmed }: { open: boolean; onClose: () => void; onConfirmed: () => void }) {
  const account = useAccount();
  const prove = useProveIdentity();
  const [proof, setProof] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const usesCode = account.data ? !account.data.has_password : false;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    prove.mutate(usesCode ? { code: proof } : { password: proof }, {
      onSuccess: () => {
        setProof("");
        setProblem(null);
        onConfirmed();
      },
      onError: (err) => setProblem(errorDetail(err) ?? "That could not be checked. Please try again."),
    });
  }

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (next) return;
        setProof("");
        setProblem(null);
        onClose();
      }}
    >
      <AlertDialogContent>
        <form noValidate onSubmit={submit} className="grid gap-4">
          <AlertDialogHeader>
            <AlertDialogTitle>Confirm it is you</AlertDialogTitle>
            <AlertDialogDescription>
              {usesCode
                ? "Enter a code from your authenticator app to continue. You will not be asked again for 10 minutes."
                : "Enter your password to continue. You will not be asked again for 10 minutes."}
            </AlertDialogDescription>
          </AlertDialogHeader>
          {usesCode ? (
            <FormField id="confirm-identity-code" label="Code from your authenticator app">
              <Input autoComplete="one-time-code" inputMode="numeric" value={proof} onChange={(e) => setProof(e.target.value)} />
            </FormField>
          ) : (
            <FormField id="confirm-identity-password" label="Current password">
              <PasswordInput autoComplete="current-password" value={proof} onChange={(e) => setProof(e.target.value)} />
            </FormField>
          )}
          <FormAlert message={problem} />
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <Button type="submit" disabled={prove.isPending}>
              {prove.isPending ? "Checking..." : "Continue"}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
