import { LayoutDashboard, LogIn } from "lucide-react";
import { BrandMark } from "@/components/brand-mark.tsx";
import { Button } from "@/components/ui/button.tsx";

export const SECTION_LINKS = [
  { href: "#services", label: "Services" },
  { href: "#about", label: "About" },
  { href: "#contact", label: "Contact" },
] as const;

type SiteHeaderProps = {
  firmName: string;
  logoSrc: string;
  signedIn: boolean;
  onOpenPortal: () => void;
  onOpenDashboard: () => void;
};

export function SiteHeader({ firmName, logoSrc, signedIn, onOpenPortal, onOpenDashboard }: SiteHeaderProps) {
  return (
    <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex max-w-content flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
        <a href="#top" className="mr-auto min-w-0 rounded-md">
          <BrandMark name={firmName} logoSrc={logoSrc} className="max-w-[15rem] text-sm sm:max-w-none sm:text-base" />
        </a>
        <nav aria-label="Sections" className="order-last w-full sm:order-none sm:w-auto">
          <ul className="flex gap-1 text-sm font-medium">
            {SECTION_LINKS.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  className="inline-flex h-9 items-center rounded-md px-3 text-muted-foreground transition-colors hover:bg-muted hover:text-foreground"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {signedIn ? (
          <Button onClick={onOpenDashboard}>
            <LayoutDashboard />
            Dashboard
          </Button>
        ) : (
          <Button onClick={onOpenPortal}>
            <LogIn />
            Client Portal
          </Button>
        )}
      </div>
    </header>
  );
}
