import type { ReactNode } from "react";
import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { AdminBrand } from "@/components/admin-brand.tsx";
import { Button } from "@/components/ui/button.tsx";

type AdminRecordShellProps = {
  /** The document title's first part ("Maria Garcia"); " | Admin | Client Portal" follows. */
  title: string;
  /** Where the top bar's back button goes, and what it says ("Clients"). */
  back: { to: string; label: string };
  children: ReactNode;
};

/** The admin portal's pages of one record (a client account, a client person, an access report): the top bar with the firm's name and the way back, then the page. */
export function AdminRecordShell({ title, back, children }: AdminRecordShellProps) {
  return (
    <div className="min-h-dvh bg-muted/40">
      <title>{`${title} | Admin | Client Portal`}</title>
      <header className="border-b bg-card">
        <div className="mx-auto flex max-w-content items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <AdminBrand to="/admin/dashboard" />
          <Button asChild variant="outline" size="sm">
            <Link to={back.to}>
              <ArrowLeft aria-hidden="true" />
              {back.label}
            </Link>
          </Button>
        </div>
      </header>
      <main className="mx-auto grid max-w-content min-w-0 gap-6 px-4 py-6 sm:px-6 sm:py-8">{children}</main>
    </div>
  );
}
