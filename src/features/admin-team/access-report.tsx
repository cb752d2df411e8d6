import type { AccessReason, AccessReport } from "@server/domains/staff/schemas.ts";
import { Badge } from "@/components/ui/badge.tsx";
import { TruncatedText } from "@/components/ui/truncated-text.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { RIGHT_LABELS } from "./rights-fieldset.tsx";

/** Why a person of the firm sees the account, in the words the Team tab uses. */
const REASON_LABELS: Record<AccessReason, string> = {
  owner: "Owner: sees every client",
  admin: "Admin: sees every client",
  all_clients: "All clients right",
  assigned: "Assigned to this account",
};

/**
 * The access report of one client account: who at the firm can see it now and why (their role,
 * the all clients right or an assignment), then who opened its documents and when.
 */
export function AccessReportView({ report }: { report: AccessReport }) {
  return (
    <>
      <section aria-labelledby="access-people-heading" className="grid gap-3 rounded-xl border bg-card p-4 sm:p-6">
        <div className="grid gap-1">
          <h2 id="access-people-heading" className="text-lg font-semibold">
            Who can see this account
          </h2>
          <p className="text-sm text-muted-foreground">
            Active people of the firm who reach this client's data, and why. Deactivated people see nothing.
          </p>
        </div>
        <ul aria-label="People who can see this account" className="grid divide-y rounded-lg border">
          {report.people.map((person) => (
            <li key={person.id} className="grid gap-1 p-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:gap-3">
              <div className="grid min-w-0 gap-0.5">
                <TruncatedText text={person.name} className="font-medium" />
                <TruncatedText text={person.email} className="text-sm text-muted-foreground" />
                {person.role === "staff" && (
                  <p className="text-sm text-muted-foreground">
                    May use:{" "}
                    {person.rights
                      .filter((r) => r !== "all_clients")
                      .map((r) => RIGHT_LABELS[r])
                      .join(", ") || "no rights yet"}
                  </p>
                )}
              </div>
              <div className="flex flex-wrap gap-2 sm:justify-end">
                <Badge variant={person.reason === "assigned" ? "success" : "secondary"}>{REASON_LABELS[person.reason]}</Badge>
                {person.assigned && person.reason !== "assigned" && <Badge variant="muted">Also assigned</Badge>}
              </div>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="access-opened-heading" className="grid gap-3 rounded-xl border bg-card p-4 sm:p-6">
        <div className="grid gap-1">
          <h2 id="access-opened-heading" className="text-lg font-semibold">
            Who opened this client's documents
          </h2>
          <p className="text-sm text-muted-foreground">Downloads and previews by the firm's people, newest first.</p>
        </div>
        {report.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nobody at the firm has opened this client's documents yet.</p>
        ) : (
          <ul aria-label="Document openings" className="grid divide-y rounded-lg border">
            {report.items.map((item, index) => (
              <li key={`${item.occurred_at.toISOString()}-${index}`} className="grid gap-0.5 p-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:gap-3">
                <span className="min-w-0 break-words">
                  <span className="font-medium">{item.actor_label}</span> {item.action === "document.download" ? "downloaded" : "viewed"}{" "}
                  <span className="break-all">{item.filename ?? "a document"}</span>
                </span>
                <time dateTime={item.occurred_at.toISOString()} className="text-sm whitespace-nowrap text-muted-foreground">
                  {formatDateTime(item.occurred_at)}
                </time>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
