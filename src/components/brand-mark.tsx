import { cn } from "@/lib/cn.ts";

type BrandMarkProps = {
  /** The firm's name (site content company.name). */
  name: string;
  /** The logo's path (site content company.logo); blank means the logo the app ships. */
  logoSrc?: string;
  className?: string;
};

/** The firm's logo and name, as the public site, the client portal and the admin portal show them. */
const SHIPPED_LOGO = "/images/logo.svg";

export function BrandMark({ name, logoSrc, className }: BrandMarkProps) {
  return (
    <span className={cn("inline-flex min-w-0 items-center gap-2.5", className)}>
      <img src={logoSrc?.trim() || SHIPPED_LOGO} alt="" width={32} height={32} className="size-8 shrink-0 rounded-md" />
      <span className="truncate font-semibold tracking-tight">{name}</span>
    </span>
  );
}
