import { CircleUser, LogOut } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { PortalBrand } from "./portal-brand.tsx";
import { useLogout } from "./use-logout.ts";

export function PortalTopBar({ userName }: { userName: string }) {
  const logout = useLogout();

  return (
    <header className="border-b bg-card">
      <div className="mx-auto flex h-16 max-w-content items-center justify-between gap-3 px-4 sm:px-6">
        <PortalBrand />
        <div className="flex min-w-0 shrink-0 items-center gap-2 sm:gap-4">
          <span className="flex min-w-0 items-center gap-1.5 text-sm text-muted-foreground">
            <CircleUser aria-hidden="true" className="size-4 shrink-0" />
            <span className="max-w-28 truncate sm:max-w-60">{userName}</span>
          </span>
          <Button variant="outline" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
            <LogOut aria-hidden="true" />
            Logout
          </Button>
        </div>
      </div>
    </header>
  );
}
