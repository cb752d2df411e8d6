import { consultationRequestInput } from "../domains/consultation/schemas.ts";
import { successOutput } from "../domains/shared-schemas.ts";
import { siteContentOutput } from "../domains/site/schemas.ts";
import { procedureRoute, type RestRoute } from "./route.ts";

export const publicSiteRoutes: RestRoute[] = [
  procedureRoute({
    method: "post",
    path: "/consultation/request",
    summary: "Request a consultation",
    tag: "public site",
    access: "public",
    body: consultationRequestInput,
    response: successOutput,
    call: (c, r) => c.consultation.request(r.body),
  }),
  procedureRoute({
    method: "get",
    path: "/site-content",
    summary: "Site content for the landing page (stored over defaults)",
    tag: "public site",
    access: "public",
    response: siteContentOutput,
    call: (c) => c.site.content(),
  }),
];
