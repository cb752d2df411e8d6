import { Link } from "react-router";
import { trpc } from "@/lib/trpc.ts";

/** The admin portal's top-left mark: the firm's name (site content company.name) over "Admin", linking to `to`. */
export function AdminBrand({ to }: { to: string }) {
  const firmName = trpc.site.content.useQuery().data?.company?.name?.value ?? "";
  return (
    <Link to={to} className="flex min-w-0 items-center gap-2.5 rounded-md">
      <img src="/images/logo.svg" alt="" width={32} height={32} className="size-8 shrink-0" />
      <span className="grid min-w-0 leading-tight">
        {/* Two lines rather than cut, so a phone shows the firm's whole name (issue 48). */}
        <span className="line-clamp-2 text-sm font-semibold break-words sm:text-base">{firmName || "Client Portal"}</span>
        <span className="truncate text-xs text-muted-foreground">Admin</span>
      </span>
    </Link>
  );
}
