// The landing page's index.html with its public data (site content and links) embedded as a
// `<script type="application/json">` block: the page paints its content without first waiting
// for API calls. A JSON block is never executed, so the CSP (script-src 'self') is untouched.
import { isDatabaseUnavailable } from "./db/errors.ts";
import { PUBLIC_SITE_DATA_ID, type PublicSiteData } from "./routers/site/public-data.ts";
import { publicSiteContent } from "./routers/site/service.ts";
import type { AppDeps } from "./trpc/context.ts";

export async function publicSiteData(deps: Pick<AppDeps, "db" | "config" | "now">): Promise<PublicSiteData> {
  return { content: await publicSiteContent(deps), links: { notaryUrl: deps.config.notaryUrl, firmTimeZone: deps.config.firmTimeZone } };
}

/**
 * JSON that cannot end the element it sits in: `<`, `>` and `&` become \u escapes, which
 * JSON.parse reads back as the same characters.
 */
export function scriptSafeJson(data: unknown): string {
  return JSON.stringify(data).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * index.html with the public site data at the end of its head. Without the data (the database is
 * down) the page is served as built, and the client asks the API for it as it would in development.
 */
export async function landingHtml(template: string, deps: Pick<AppDeps, "db" | "config" | "now" | "logger">): Promise<string> {
  let data: PublicSiteData;
  try {
    data = await publicSiteData(deps);
  } catch (err) {
    if (!isDatabaseUnavailable(err)) deps.logger.error({ err }, "site content for index.html failed");
    return template;
  }
  const block = `<script type="application/json" id="${PUBLIC_SITE_DATA_ID}">${scriptSafeJson(data)}</script>`;
  // A function, not a string: in a replacement string `$&`, `$'` and friends would act on the
  // admin's text.
  return template.replace("</head>", () => `${block}</head>`);
}
