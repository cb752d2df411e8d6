import type { ReactNode } from "react";
import type { LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card.tsx";

type DashboardItemsCardProps = {
  /** The heading's id, which names the card's region ("signatures-heading"). */
  headingId: string;
  icon: LucideIcon;
  title: string;
  /** One sentence under the heading: what is waiting for the client. */
  description: string;
  /** The list's accessible name ("Documents to sign"). */
  listLabel: string;
  /** The list's DashboardItem rows. */
  children: ReactNode;
};

/** A dashboard card of the things a firm sent the client (signature requests, organizers): a heading with its icon, a sentence, and one linked row each. */
export function DashboardItemsCard({ headingId, icon: Icon, title, description, listLabel, children }: DashboardItemsCardProps) {
  return (
    <Card aria-labelledby={headingId} role="region" className="min-w-0 border-accent/30">
      <CardHeader>
        <CardTitle asChild>
          <h2 id={headingId} className="flex items-center gap-2">
            <Icon aria-hidden="true" className="size-5 text-accent" />
            {title}
          </h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul aria-label={listLabel} className="grid gap-3">
          {children}
        </ul>
      </CardContent>
    </Card>
  );
}

type DashboardItemProps = {
  /** Where the row leads: the item's own page. */
  to: string;
  title: string;
  /** Where the item stands. */
  badge: ReactNode;
  /** Under the title: a summary line and what the client may do next. */
  children: ReactNode;
};

/** One row of a DashboardItemsCard: the whole row is the link to the item. */
export function DashboardItem({ to, title, badge, children }: DashboardItemProps) {
  return (
    <li>
      <Link
        to={to}
        className="grid min-w-0 gap-2 rounded-lg border bg-card p-4 transition-colors hover:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <span className="flex flex-wrap items-start justify-between gap-2">
          <span className="min-w-0 font-medium break-words [overflow-wrap:anywhere]">{title}</span>
          {badge}
        </span>
        {children}
      </Link>
    </li>
  );
}
