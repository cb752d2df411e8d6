import type { ReactNode } from "react";
import type { LucideIcon } from "lucide-react";

type SettingsSectionProps = {
  /** The heading's id, which names the section. */
  headingId: string;
  icon: LucideIcon;
  title: string;
  /** What the section is for, under its heading. */
  description: ReactNode;
  /** The section's classes (a card by default). */
  className?: string;
  /** The icon's classes (the accent colour by default). */
  iconClassName?: string;
  children: ReactNode;
};

/** One of the admin portal's setting cards: an icon beside the heading and what the section is for, then the section's own content. */
export function SettingsSection({
  headingId,
  icon: Icon,
  title,
  description,
  className = "grid gap-4 rounded-xl border bg-card p-6",
  iconClassName = "mt-1 size-5 shrink-0 text-accent",
  children,
}: SettingsSectionProps) {
  return (
    <section aria-labelledby={headingId} className={className}>
      <div className="flex items-start gap-3">
        <Icon aria-hidden="true" className={iconClassName} />
        <div className="grid gap-1">
          <h2 id={headingId} className="text-lg font-semibold">
            {title}
          </h2>
          <p className="text-sm text-muted-foreground">{description}</p>
        </div>
      </div>
      {children}
    </section>
  );
}
