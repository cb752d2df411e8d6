import type { PublicSiteMedia } from "../site-media/schemas.ts";
import type { SiteContent } from "./schemas.ts";

/**
 * What the landing page needs before it can paint: the site content and the configured links.
 * The server embeds it into the landing page's index.html (server/index-html.ts) and the web
 * client reads it from there; this module holds no runtime code, so the client can import it.
 */
export type SiteLinks = { notaryUrl: string; firmTimeZone: string };
export type PublicSiteData = { content: SiteContent; links: SiteLinks; media: PublicSiteMedia };

/** The id of the `<script type="application/json">` element holding the data. */
export const PUBLIC_SITE_DATA_ID = "public-site-data";

/**
 * The firm's name until the firm sets its own. Here rather than in defaults.ts, so the landing
 * page's first load takes this line and not the sample quotes and services (docs/i18n.md, "Budget").
 */
export const DEFAULT_FIRM_NAME = "Harborline Accounting & Business Services";
