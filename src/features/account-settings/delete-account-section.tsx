import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { PasswordInput } from "@/components/ui/password-input.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import type { AccountOverview } from "@server/domains/profile/schemas.ts";
import { SettingsSection } from "./settings-section.tsx";
import { useDeleteAccount } from "./use-delete-account.ts";

/** Deletes the account and everything in it, after the password (or a code) in a confirmation. */
export function DeleteAccountSection({ account }: { account: AccountOverview }) {
  const [open, setOpen] = useState(false);
  const [proof, setProof] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const remove = useDeleteAccount();
  const navigate = useNavigate();
  const usesCode = !account.has_password && account.two_factor.enabled;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    remove.mutate(account.has_password ? { password: proof } : usesCode ? { code: proof } : {}, {
      onSuccess: () => {
        toast.success("Your account was deleted.");
        void navigate("/", { replace: true });
      },
      onError: (err) => setProblem(errorDetail(err) ?? "The account could not be deleted."),
    });
  }

  return (
    <SettingsSection
      id="delete-account"
      tone="danger"
      title="Delete account"
      description="Your folders, documents and appointments are deleted with the account. If it holds signed documents the firm must keep by law (a signed Form 8879 at least 3 years), the firm keeps its records until then. This cannot be undone."
    >
      <AlertDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          setProblem(null);
          setProof("");
        }}
      >
        <AlertDialogTrigger asChild>
          <Button variant="destructive" className="w-fit">
            Delete my account
          </Button>
        </AlertDialogTrigger>
        <AlertDialogContent>
          <form noValidate onSubmit={submit} className="grid gap-4">
            <AlertDialogHeader>
              <AlertDialogTitle>Delete your account?</AlertDialogTitle>
              <AlertDialogDescription>
                Your folders, documents and appointments are deleted for good, unless the account holds signed documents the firm must keep by law:
                then the firm keeps its records until their time is up.
              </AlertDialogDescription>
            </AlertDialogHeader>
            {account.has_password ? (
              <FormField id="delete-password" label="Current password">
                <PasswordInput autoComplete="current-password" value={proof} onChange={(e) => setProof(e.target.value)} />
              </FormField>
            ) : usesCode ? (
              <FormField id="delete-code" label="Code from your authenticator app">
                <Input autoComplete="one-time-code" inputMode="numeric" value={proof} onChange={(e) => setProof(e.target.value)} />
              </FormField>
            ) : (
              <p className="text-sm text-muted-foreground">For your security this works within 10 minutes of signing in.</p>
            )}
            <FormAlert message={problem} />
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <Button type="submit" variant="destructive" disabled={remove.isPending}>
                {remove.isPending ? "Deleting..." : "Delete account"}
              </Button>
            </AlertDialogFooter>
          </form>
        </AlertDialogContent>
      </AlertDialog>
    </SettingsSection>
  );
}
