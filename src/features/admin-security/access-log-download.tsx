import { FileDown } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";

/** YYYY-MM-DD of a local day, as a date input shows it. */
function dayValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The picked days are whole local days: `to` is exclusive on the server, so it becomes the next day's start. */
function accessLogHref(from: string, to: string): string | null {
  if (!from || !to) return null;
  const start = new Date(`${from}T00:00`);
  const end = new Date(`${to}T00:00`);
  end.setDate(end.getDate() + 1);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || end <= start) return null;
  return `/api/admin/security/access-log.csv?${new URLSearchParams({ from: start.toISOString(), to: end.toISOString() })}`;
}

/**
 * "Who accessed what" in a window of days, as CSV (docs/safeguards.md), for whoever has the activity
 * right (what `GET /api/admin/security/access-log.csv` asks for). `card`: a card of its own (the
 * Activity tab); without it, a part of the incident section in Firm settings.
 */
export function AccessLogDownload({ card = false }: { card?: boolean }) {
  const id = useId();
  const today = new Date();
  const weekAgo = new Date(today);
  weekAgo.setDate(weekAgo.getDate() - 7);
  const [from, setFrom] = useState(dayValue(weekAgo));
  const [to, setTo] = useState(dayValue(today));
  const href = accessLogHref(from, to);
  const Heading = card ? "h2" : "h3";

  return (
    <section aria-labelledby={`${id}-heading`} className={card ? "grid gap-3 rounded-xl border bg-card p-4 sm:p-6" : "grid gap-3"}>
      <Heading id={`${id}-heading`} className={card ? "text-lg font-semibold" : "font-medium"}>
        Access log
      </Heading>
      <p className="text-sm text-muted-foreground">
        Sign-ins, failed sign-ins, sign-outs, document downloads and views, and exports, by person and account, as a spreadsheet (CSV).
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-from`}>From</Label>
          <Input id={`${id}-from`} type="date" value={from} max={to || undefined} onChange={(event) => setFrom(event.target.value)} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-to`}>To (inclusive)</Label>
          <Input id={`${id}-to`} type="date" value={to} min={from || undefined} onChange={(event) => setTo(event.target.value)} />
        </div>
        {href ? (
          <Button asChild variant="outline">
            <a href={href} download>
              <FileDown aria-hidden="true" />
              Download access log
            </a>
          </Button>
        ) : (
          <Button variant="outline" disabled>
            <FileDown aria-hidden="true" />
            Download access log
          </Button>
        )}
      </div>
    </section>
  );
}
