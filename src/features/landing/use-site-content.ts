import { useEffect, useState } from "react";
import { publicQuery } from "@/lib/public-query.ts";
import { PUBLIC_SITE_DATA_ID, type PublicSiteData, type SiteLinks } from "@server/domains/site/public-data.ts";
import type { SiteContent } from "@server/domains/site/schemas.ts";
import type { PublicSiteMedia } from "@server/domains/site-media/schemas.ts";

/** What the server put into index.html (server/index-html.ts); absent in development. */
function readDocumentData(): PublicSiteData | undefined {
  const text = document.getElementById(PUBLIC_SITE_DATA_ID)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as PublicSiteData;
  } catch {
    return undefined;
  }
}

let known = readDocumentData();
// The document's copy is as fresh as the document, so the first visit of the page uses it as it
// is. A later visit (after client-side navigation) shows it while asking again: an admin may
// have changed the content since.
let knownIsFresh = known !== undefined;

/** The public site content (stored values over the defaults), the configured links, and a reader that never throws. */
export function useSiteContent() {
  const [data, setData] = useState(known);
  const [isPending, setIsPending] = useState(known === undefined);

  useEffect(() => {
    if (knownIsFresh) {
      knownIsFresh = false;
      return;
    }
    let current = true;
    Promise.all([publicQuery<SiteContent>("site.content"), publicQuery<SiteLinks>("site.links"), publicQuery<PublicSiteMedia>("siteMedia.public")])
      .then(([content, links, media]) => {
        known = { content, links, media };
        if (current) setData(known);
      })
      // The browser reports the failed request; the page keeps what it has (blank values at worst).
      .catch(() => undefined)
      .finally(() => {
        if (current) setIsPending(false);
      });
    return () => {
      current = false;
    };
  }, []);

  return {
    isPending,
    links: data?.links,
    /** The welcome video and the site's switches; undefined while loading. */
    media: data?.media,
    /** The value of section.key, or "" while loading or when absent. */
    value: (section: string, key: string): string => data?.content[section]?.[key]?.value ?? "",
  };
}

export type SiteContentReader = ReturnType<typeof useSiteContent>["value"];
