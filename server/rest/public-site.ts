import { consultationRequestInput } from "../routers/consultation/schemas.ts";
import { successOutput } from "../routers/shared-schemas.ts";
import { siteContentOutput } from "../routers/site/schemas.ts";
import type { RestRoute } from "./route.ts";

export const publicSiteRoutes: RestRoute[] = [
  {
    method: "post",
    path: "/consultation/request",
    summary: "Request a consultation",
    tag: "public site",
    access: "public",
    body: consultationRequestInput,
    response: successOutput,
    call: (c, r) => c.consultation.request(r.body as never),
  },
  {
    method: "get",
    path: "/site-content",
    summary: "Site content for the landing page (stored over defaults)",
    tag: "public site",
    access: "public",
    response: siteContentOutput,
    call: (c) => c.site.content(),
  },
];
