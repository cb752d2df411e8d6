import { Trans, useLingui } from "@lingui/react/macro";
import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { PortalSkeleton } from "@/components/ui/page-skeleton.tsx";
import { SkipLink } from "@/components/ui/skip-link.tsx";
import { AccountSettings } from "@/features/account-settings/account-settings.tsx";
import { PortalTopBar } from "@/features/portal/portal-top-bar.tsx";
import { useCurrentUser } from "@/lib/use-current-user.ts";
import { SignInFirst } from "./sign-in-first.tsx";

/** /settings: the client's own account (profile, password, two-factor sign-in, passkeys, sessions). */
export function SettingsPage() {
  const { user, status } = useCurrentUser();
  const { t } = useLingui();
  if (status === "unknown") return <PortalSkeleton label={t`Checking your session…`} />;
  if (!user) return <SignInFirst portal="client" />;

  return (
    <div className="min-h-dvh bg-background">
      <title>{t`Settings | Client Portal`}</title>
      <SkipLink />
      <PortalTopBar userName={user.name} email={user.email} />
      <main id="main" tabIndex={-1} className="mx-auto grid max-w-3xl grid-cols-1 gap-4 px-4 py-5 outline-none sm:gap-6 sm:px-6 sm:py-10">
        <Link to="/dashboard" className="inline-flex w-fit items-center gap-1.5 rounded-sm text-sm text-muted-foreground hover:text-foreground">
          <ArrowLeft aria-hidden="true" className="size-4" />
          <Trans>Back to dashboard</Trans>
        </Link>
        <div className="grid gap-1">
          <h1 className="text-xl font-semibold sm:text-3xl">
            <Trans>Settings</Trans>
          </h1>
          <p className="text-muted-foreground">
            <Trans>Your profile, how you sign in, and where you are signed in.</Trans>
          </p>
        </div>
        <AccountSettings />
      </main>
    </div>
  );
}
