import { FileDown, ShieldAlert } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { useEndAllSessions } from "./use-end-all-sessions.ts";

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
 * Responding to an incident (docs/safeguards.md): the owner ends every session at once, after a
 * confirmation saying what it does; whoever may read the activity trail downloads who accessed
 * what in a window of days.
 */
export function IncidentResponse({ isOwner, mayReadLog }: { isOwner: boolean; mayReadLog: boolean }) {
  const endAll = useEndAllSessions();
  const today = new Date();
  const weekAgo = new Date(today);
  weekAgo.setDate(weekAgo.getDate() - 7);
  const [from, setFrom] = useState(dayValue(weekAgo));
  const [to, setTo] = useState(dayValue(today));
  const href = accessLogHref(from, to);
  if (!isOwner && !mayReadLog) return null;

  return (
    <section aria-labelledby="incident-heading" className="grid gap-5 rounded-xl border bg-card p-6">
      <div className="flex items-start gap-3">
        <ShieldAlert aria-hidden="true" className="mt-1 size-5 shrink-0 text-destructive" />
        <div className="grid gap-1">
          <h2 id="incident-heading" className="text-lg font-semibold">
            Responding to an incident
          </h2>
          <p className="text-sm text-muted-foreground">
            If a password, a device or a mailbox may have fallen into the wrong hands: sign everyone out, then see who accessed what.
          </p>
        </div>
      </div>
      {mayReadLog && (
        <div className="grid gap-3">
          <h3 className="font-medium">Access log</h3>
          <p className="text-sm text-muted-foreground">
            Sign-ins, failed sign-ins, sign-outs, document downloads and views, and exports, by person and account, as a spreadsheet (CSV).
          </p>
          <div className="flex flex-wrap items-end gap-3">
            <div className="grid gap-1.5">
              <Label htmlFor="access-log-from">From</Label>
              <Input id="access-log-from" type="date" value={from} max={to || undefined} onChange={(event) => setFrom(event.target.value)} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="access-log-to">To (inclusive)</Label>
              <Input id="access-log-to" type="date" value={to} min={from || undefined} onChange={(event) => setTo(event.target.value)} />
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
        </div>
      )}
      {isOwner && (
        <div className="grid gap-3 border-t pt-5">
          <h3 className="font-medium">Sign everyone out</h3>
          <p className="text-sm text-muted-foreground">
            Ends every session of every client and every team member at once, your own other sessions included; this one stays open. Everyone signs in
            again with their password and second factor. Open pages stop receiving messages at once.
          </p>
          <ConfirmAction
            trigger={
              <Button variant="destructive" className="w-fit" disabled={endAll.isPending}>
                End every session
              </Button>
            }
            title="End every session?"
            question="Every client and every team member is signed out now, on every device, and must sign in again. Only this session of yours stays open. This cannot be undone."
            confirmLabel="Sign everyone out"
            onConfirm={() =>
              endAll.mutate(
                { confirm: true },
                {
                  onSuccess: (result) =>
                    toast.success(
                      `${result.sessions_ended} ${result.sessions_ended === 1 ? "session" : "sessions"} ended; ${result.people_signed_out} ${
                        result.people_signed_out === 1 ? "person" : "people"
                      } signed out.`,
                    ),
                  onError: (err) => toast.error(errorDetail(err) ?? "The sessions could not be ended."),
                },
              )
            }
          />
        </div>
      )}
    </section>
  );
}
