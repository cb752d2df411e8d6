import { ShieldAlert } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { AccessLogDownload } from "./access-log-download.tsx";
import { useEndAllSessions } from "./use-end-all-sessions.ts";

/**
 * Responding to an incident (docs/safeguards.md): the owner ends every session at once, after a
 * confirmation saying what it does; whoever may read the activity trail downloads who accessed
 * what in a window of days (here, and in the Activity tab for those without the settings right).
 */
export function IncidentResponse({ isOwner, mayReadLog }: { isOwner: boolean; mayReadLog: boolean }) {
  const endAll = useEndAllSessions();
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
      {mayReadLog && <AccessLogDownload />}
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
