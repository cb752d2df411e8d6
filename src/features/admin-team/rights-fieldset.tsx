import { STAFF_RIGHTS, type StaffRight } from "@server/domains/staff/schemas.ts";

/** What each right lets a staff member do, as the Team tab says it. */
export const RIGHT_LABELS: Record<StaffRight, string> = {
  all_clients: "All clients",
  manage_clients: "Manage clients",
  documents: "Documents",
  requests: "Requests",
  messages: "Messages",
  appointments: "Appointments",
  site: "Site content",
  activity: "Activity",
  settings: "Firm settings",
  staff: "Team",
};

/** What each right opens, said where the owner gives it (docs/security.md, "Staff roles and rights"). */
export const RIGHT_HINTS: Record<StaffRight, string> = {
  all_clients: "Sees every client. Without it, only the clients assigned to them.",
  manage_clients: "Adds, edits and removes clients and their people, invites clients, answers consultation requests.",
  documents: "Opens, uploads, moves and deletes clients' documents.",
  requests: "Sends document requests, organizers and signature requests, and follows them up.",
  messages: "Reads and answers clients' messages.",
  appointments: "Books, moves and cancels appointments; sets the firm's availability.",
  site: "Edits the public site's words, pictures and testimonials.",
  activity: "Reads the activity trail and who opened each client's documents.",
  settings: "Changes the firm's settings: security, registration, retention.",
  staff: "Invites team members and changes their rights (only rights they hold themselves).",
};

/** The rights of a staff member as checkboxes, each with what it opens. */
export function RightsFieldset({ idPrefix, value, onChange }: { idPrefix: string; value: StaffRight[]; onChange: (rights: StaffRight[]) => void }) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">Rights</legend>
      <div className="grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-2">
        {STAFF_RIGHTS.map((right) => (
          <div key={right} className="grid grid-cols-[auto_1fr] items-start gap-x-2 text-sm">
            <input
              id={`${idPrefix}-${right}`}
              type="checkbox"
              className="mt-0.5 size-4 accent-primary max-sm:mt-3.5"
              checked={value.includes(right)}
              aria-describedby={`${idPrefix}-${right}-hint`}
              onChange={(e) => onChange(e.target.checked ? [...value, right] : value.filter((r) => r !== right))}
            />
            <label htmlFor={`${idPrefix}-${right}`} className="flex min-h-11 items-center font-medium sm:min-h-0">
              {RIGHT_LABELS[right]}
            </label>
            <p id={`${idPrefix}-${right}-hint`} className="col-start-2 text-muted-foreground">
              {RIGHT_HINTS[right]}
            </p>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
