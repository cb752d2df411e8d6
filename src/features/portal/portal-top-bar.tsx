import { Trans, useLingui } from "@lingui/react/macro";
import { ChevronDown, CircleUser, LogOut, Settings } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from "@/components/ui/dropdown-menu.tsx";
import { useMediaQuery } from "@/lib/use-media-query.ts";
import { AccountSwitcher } from "./account-switcher.tsx";
import { PortalBrand } from "./portal-brand.tsx";
import { useLogout } from "./use-logout.ts";

/**
 * The portal's top bar, as the specification draws it: logo and company name, the user's name, Logout.
 * The name opens the account menu (Settings); on phones Logout and the name fold into that menu too. A person
 * who reaches several client accounts also gets the account switcher beside it.
 */
export function PortalTopBar({ userName, email }: { userName: string; email: string }) {
  const logout = useLogout();
  const { t } = useLingui();
  // On a phone the firm's name takes the row's room (a 360 px phone cut it to "Harborline..."): the
  // person's name and Logout go into the menu, whose label names them (as the page's greeting does).
  const wide = useMediaQuery("(min-width: 640px)");

  return (
    <header className="border-b bg-card">
      <div className="mx-auto flex h-16 max-w-content items-center justify-between gap-3 px-4 sm:px-6">
        <PortalBrand />
        <div className="flex shrink-0 items-center gap-2">
          <AccountSwitcher />
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" className="min-w-0 shrink" aria-label={wide ? undefined : t`${userName}: account menu`}>
                <CircleUser aria-hidden="true" />
                {wide && <span className="max-w-60 truncate">{userName}</span>}
                <ChevronDown aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent className="max-w-72">
              <DropdownMenuLabel>
                <span className="block truncate font-medium">{userName}</span>
                <span className="block truncate text-xs font-normal text-muted-foreground">{email}</span>
              </DropdownMenuLabel>
              <DropdownMenuItem asChild>
                <Link to="/settings">
                  <Settings aria-hidden="true" />
                  <Trans>Settings</Trans>
                </Link>
              </DropdownMenuItem>
              {!wide && (
                <DropdownMenuItem disabled={logout.isPending} onSelect={() => logout.mutate()}>
                  <LogOut aria-hidden="true" />
                  <Trans>Logout</Trans>
                </DropdownMenuItem>
              )}
            </DropdownMenuContent>
          </DropdownMenu>
          {wide && (
            <Button variant="outline" disabled={logout.isPending} onClick={() => logout.mutate()}>
              <LogOut aria-hidden="true" />
              <Trans>Logout</Trans>
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
