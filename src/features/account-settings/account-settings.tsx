import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { DeleteAccountSection } from "./delete-account-section.tsx";
import { ExportSection } from "./export-section.tsx";
import { LanguageSection } from "./language-section.tsx";
import { PasskeysSection } from "./passkeys-section.tsx";
import { PeopleSection } from "./people-section.tsx";
import { PasswordSection } from "./password-section.tsx";
import { ProfileSection } from "./profile-section.tsx";
import { SessionsSection } from "./sessions-section.tsx";
import { TwoFactorSection } from "./two-factor-section.tsx";
import { useAccount } from "./use-account.ts";

/** The signed-in user's own settings, for the client portal's Settings page and the admin's Account tab. */
export function AccountSettings() {
  const account = useAccount();
  if (account.isPending) return <Spinner label="Loading your settings…" className="w-full justify-center py-10" />;
  if (!account.data) {
    return <LoadError message="Your settings could not be loaded." onRetry={() => void account.refetch()} isRetrying={account.isFetching} />;
  }
  const data = account.data;
  return (
    <div className="grid gap-4 sm:gap-6">
      <ProfileSection account={data} />
      {/* The firm's own pages stay English (docs/i18n.md): the choice is the client's. */}
      {!data.user.is_admin && <LanguageSection language={data.user.language} />}
      {!data.user.is_admin && <PeopleSection userId={data.user.id} emailVerified={data.user.email_verified} />}
      <PasswordSection hasPassword={data.has_password} />
      <TwoFactorSection account={data} />
      <PasskeysSection />
      <SessionsSection />
      {!data.user.is_admin && <ExportSection />}
      {data.user.is_admin ? (
        <p className="text-sm text-muted-foreground">Admin accounts cannot be deleted here.</p>
      ) : (
        <DeleteAccountSection account={data} />
      )}
    </div>
  );
}
