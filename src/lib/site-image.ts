/** The images the app ships in public/, shown when site content names none it can load. */
export const SHIPPED_IMAGES = {
  hero: "/images/hero.svg",
  about: "/images/about.svg",
  logo: "/images/logo.svg",
} as const;

/**
 * A site-content image value (hero.image, about.image, company.logo) the page can load: a path on
 * our own origin or an inline data:image. Anything else falls back to `shipped`: another host is
 * blocked by the CSP (img-src 'self' data:) and would show a broken image, and "//host" or "/\host"
 * only look like paths.
 */
export function siteImageSrc(value: string | undefined, shipped: string): string {
  const src = value?.trim() ?? "";
  const ownPath = src.startsWith("/") && src[1] !== "/" && src[1] !== "\\";
  return ownPath || src.startsWith("data:image/") ? src : shipped;
}
