import { clsx } from "clsx";
import { SHIPPED_IMAGES, siteImageSrc } from "@/lib/site-image.ts";

type BrandMarkProps = {
  /** The firm's name (site content company.name). */
  name: string;
  /** The logo's path (site content company.logo); blank or not loadable means the logo the app ships. */
  logoSrc?: string;
  className?: string;
};

/** The firm's logo and name, as the public site, the client portal and the admin portal show them. */
export function BrandMark({ name, logoSrc, className }: BrandMarkProps) {
  return (
    <span className={clsx("inline-flex min-w-0 items-center gap-2.5", className)}>
      <img src={siteImageSrc(logoSrc, SHIPPED_IMAGES.logo)} alt="" width={32} height={32} className="size-8 shrink-0 rounded-md object-contain" />
      {/* Two lines rather than cut: on a phone the firm's whole name still fits (issue 48). */}
      <span className="line-clamp-2 leading-tight font-semibold tracking-tight break-words">{name}</span>
    </span>
  );
}
