import { LogOut, Monitor } from "lucide-react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatDateTime } from "@/lib/format.ts";
import { SettingsSection } from "./settings-section.tsx";
import { useRevokeOtherSessions } from "./use-revoke-other-sessions.ts";
import { useRevokeSession } from "./use-revoke-session.ts";
import { useSessions } from "./use-sessions.ts";

/** Where the account is signed in: each browser can be signed out here, or all but this one. */
export function SessionsSection() {
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  return (
    <SettingsSection id="sessions" title="Where you are signed in" description="Sign out a browser you no longer use or do not recognise.">
      {sessions.isPending ? (
        <Spinner label="Loading sessions…" />
      ) : (
        <ul aria-label="Sessions" className="divide-y rounded-lg border">
          {sessions.data?.map((session) => (
            <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
              <div className="flex min-w-0 items-start gap-3">
                <Monitor aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-medium">
                    {session.browser}
                    {session.current && <Badge variant="success">This browser</Badge>}
                    {session.kind === "admin" && <Badge variant="muted">Admin</Badge>}
                  </p>
                  <p className="text-xs text-muted-foreground tabular-nums">
                    {session.ip ?? "Unknown address"} · signed in {formatDateTime(session.created_at)} · last active{" "}
                    {formatDateTime(session.last_used_at)}
                  </p>
                </div>
              </div>
              {!session.current && (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Sign out ${session.browser}, signed in ${formatDateTime(session.created_at)}`}
                  disabled={revoke.isPending}
                  onClick={() =>
                    revoke.mutate(
                      { id: session.id },
                      {
                        onSuccess: () => toast.success("Signed out that session."),
                        onError: (err) => toast.error(errorDetail(err) ?? "That session could not be signed out."),
                      },
                    )
                  }
                >
                  <LogOut aria-hidden="true" />
                  Sign out
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {others > 0 && (
        <ConfirmAction
          trigger={
            <Button variant="ghost-destructive" className="w-fit" disabled={revokeOthers.isPending}>
              Sign out everywhere else
            </Button>
          }
          title="Sign out everywhere else"
          question={`Sign out the ${others} other session${others === 1 ? "" : "s"} of your account? This browser stays signed in.`}
          confirmLabel="Sign out"
          onConfirm={() =>
            revokeOthers.mutate(undefined, {
              onSuccess: (result) => toast.success(`Signed out ${result.ended} other session${result.ended === 1 ? "" : "s"}.`),
              onError: (err) => toast.error(errorDetail(err) ?? "The other sessions could not be signed out."),
            })
          }
        />
      )}
    </SettingsSection>
  );
}
