import { BrandMark } from "@/components/brand-mark.tsx";
import { trpc } from "@/lib/trpc.ts";

/** The firm's logo and name from the site content (stored values over the defaults). */
export function PortalBrand() {
  const { data: content } = trpc.site.content.useQuery();
  const name = content?.company?.name?.value ?? "";
  const logo = content?.company?.logo?.value;
  return <BrandMark name={name} logoSrc={logo} className="text-sm sm:text-base" />;
}
