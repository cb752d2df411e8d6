import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { LayoutDashboard, LogIn, Menu, X } from "lucide-react";
import { BrandMark } from "@/components/brand-mark.tsx";
import { LanguageSwitcher } from "@/components/language-switcher.tsx";
import { Button } from "@/components/ui/button.tsx";

export const SECTION_LINKS = [
  { href: "#services", label: msg`Services` },
  { href: "#about", label: msg`About` },
  { href: "#contact", label: msg`Contact` },
] as const;

type SiteHeaderProps = {
  /** "/" on pages other than the home page, so the section links and the logo lead to it. */
  homePath?: "" | "/";
  firmName: string;
  logoSrc: string;
  signedIn: boolean;
  onOpenPortal: () => void;
  onOpenDashboard: () => void;
};

/** The firm's name up to its first word, for the one-row phone header ("Harborline" of "Harborline Accounting & ..."). */
function shortFirmName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? "";
}

const linkClasses =
  "inline-flex h-11 items-center rounded-md px-3 text-muted-foreground transition-colors hover:bg-muted hover:text-foreground sm:h-9";

/**
 * One row at every width: on phones the logo, the short name, the portal button and a menu with
 * the section links; from `sm` up the full name and the links themselves.
 */
export function SiteHeader({ homePath = "", firmName, logoSrc, signedIn, onOpenPortal, onOpenDashboard }: SiteHeaderProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const { i18n, t } = useLingui();

  useEffect(() => {
    if (!menuOpen) return;
    const close = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMenuOpen(false);
    };
    window.addEventListener("keydown", close);
    return () => window.removeEventListener("keydown", close);
  }, [menuOpen]);

  return (
    <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex max-w-content items-center gap-2 px-4 py-2 sm:gap-6 sm:px-6 sm:py-3">
        <a
          href={`${homePath}#top`}
          // Until the site content answers the name is empty; the link still says where it goes.
          aria-label={firmName ? undefined : t`Home page`}
          className="mr-auto flex min-h-11 min-w-0 items-center rounded-md"
        >
          <span className="flex min-w-0 sm:hidden">
            <BrandMark name={shortFirmName(firmName)} logoSrc={logoSrc} className="text-base" />
          </span>
          <span className="hidden min-w-0 sm:flex">
            <BrandMark name={firmName} logoSrc={logoSrc} className="text-base" />
          </span>
        </a>
        <nav aria-label={t`Sections`} className="hidden sm:block">
          <ul className="flex gap-1 text-sm font-medium">
            {SECTION_LINKS.map((link) => (
              <li key={link.href}>
                <a href={homePath + link.href} className={linkClasses}>
                  {i18n._(link.label)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {signedIn ? (
          <Button onClick={onOpenDashboard}>
            <LayoutDashboard />
            <Trans>Dashboard</Trans>
          </Button>
        ) : (
          <Button onClick={onOpenPortal}>
            <LogIn />
            <Trans>Client Portal</Trans>
          </Button>
        )}
        <LanguageSwitcher className="max-sm:hidden" />
        <Button
          variant="ghost"
          size="icon"
          className="sm:hidden"
          aria-label={t`Menu`}
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X /> : <Menu />}
        </Button>
      </div>
      {menuOpen && (
        <nav id="site-menu" aria-label={t`Sections`} className="border-t px-4 py-2 sm:hidden">
          <ul className="grid text-sm font-medium">
            {SECTION_LINKS.map((link) => (
              <li key={link.href}>
                <a href={homePath + link.href} className={`${linkClasses} w-full`} onClick={() => setMenuOpen(false)}>
                  {i18n._(link.label)}
                </a>
              </li>
            ))}
          </ul>
          <LanguageSwitcher className="mt-1 w-full justify-start" />
        </nav>
      )}
    </header>
  );
}
