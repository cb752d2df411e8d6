// The landing page's index.html with its public data (site content and links) embedded as a
// `<script type="application/json">` block: the page paints its content without first waiting
// for API calls. A JSON block is never executed, so the CSP (script-src 'self') is untouched.
import fs from "node:fs";
import { isDatabaseUnavailable } from "./db/errors.ts";
import { PUBLIC_SITE_DATA_ID, type PublicSiteData } from "./domains/site/public-data.ts";
import { publicSiteContent } from "./domains/site/service.ts";
import { publicSiteMedia } from "./domains/site-media/service.ts";
import type { AppDeps } from "./trpc/context.ts";

async function publicSiteData(deps: Pick<AppDeps, "db" | "config" | "now">): Promise<PublicSiteData> {
  const [content, media] = await Promise.all([publicSiteContent(deps), publicSiteMedia(deps)]);
  return { content, links: { notaryUrl: deps.config.notaryUrl, firmTimeZone: deps.config.firmTimeZone }, media };
}

/**
 * JSON that cannot end the element it sits in: `<`, `>` and `&` become \u escapes, which
 * JSON.parse reads back as the same characters.
 */
function scriptSafeJson(data: unknown): string {
  return JSON.stringify(data).replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * index.html with the public site data at the end of its head. Without the data (the database is
 * down) the page is served as built, and the client asks the API for it as it would in development.
 */
async function landingHtml(template: string, deps: Pick<AppDeps, "db" | "config" | "now" | "logger">): Promise<string> {
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

type RenderedLanding = { version: number; templateModified: number; html: string };

/**
 * The landing page, rendered once and served from memory while nothing it is made of changes: each
 * request reads only the site content's version (a one-row table a trigger bumps on every write,
 * so an edit on any instance shows on all of them at once) and index.html's modification time. The
 * version is read before rendering: a change committed meanwhile makes the next request render again.
 */
export function landingPageCache(indexFile: string, deps: Pick<AppDeps, "db" | "config" | "now" | "logger">) {
  let cached: RenderedLanding | undefined;
  return async function landingPage(): Promise<string> {
    const templateModified = (await fs.promises.stat(indexFile)).mtimeMs;
    let version: number;
    try {
      version = (await deps.db.selectFrom("site_content_version").select("version").executeTakeFirstOrThrow()).version;
    } catch (err) {
      if (!isDatabaseUnavailable(err)) deps.logger.error({ err }, "site content version for index.html failed");
      return fs.promises.readFile(indexFile, "utf8");
    }
    if (cached?.version === version && cached.templateModified === templateModified) return cached.html;
    const template = await fs.promises.readFile(indexFile, "utf8");
    const html = await landingHtml(template, deps);
    // Without the data (the database went away meanwhile) the page is not kept.
    if (html !== template) cached = { version, templateModified, html };
    return html;
  };
}
