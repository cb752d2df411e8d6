import { useLingui } from "@lingui/react/macro";
import { Link } from "react-router";
import { BrandMark } from "@/components/brand-mark.tsx";
import { trpc } from "@/lib/trpc.ts";

/** The firm's logo and name from the site content (stored values over the defaults), leading home. */
export function PortalBrand() {
  const { t } = useLingui();
  const { data: content } = trpc.site.content.useQuery();
  const name = content?.company?.name?.value ?? "";
  const logo = content?.company?.logo?.value;
  return (
    // Until the name is known (or if it cannot load) the link still says where it goes.
    <Link to="/" aria-label={name ? undefined : t`Home page`} className="flex min-h-11 min-w-0 items-center rounded-md">
      <BrandMark name={name} logoSrc={logo} className="text-sm sm:text-base" />
    </Link>
  );
}
