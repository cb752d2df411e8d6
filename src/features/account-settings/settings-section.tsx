import type { ReactNode } from "react";

type SettingsSectionProps = { id: string; title: string; description?: ReactNode; children: ReactNode; tone?: "default" | "danger" };

/** One part of the settings page: a titled card, named by its heading for screen readers. */
export function SettingsSection({ id, title, description, children, tone = "default" }: SettingsSectionProps) {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className={`grid gap-4 rounded-xl border bg-card p-4 sm:p-6 ${tone === "danger" ? "border-destructive/40" : ""}`}
    >
      <div className="grid gap-1">
        <h2 id={`${id}-heading`} className="text-lg font-semibold">
          {title}
        </h2>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {children}
    </section>
  );
}
