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

/** The rights of a staff member as checkboxes. */
export function RightsFieldset({ idPrefix, value, onChange }: { idPrefix: string; value: StaffRight[]; onChange: (rights: StaffRight[]) => void }) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">Rights</legend>
      <div className="grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-2">
        {STAFF_RIGHTS.map((right) => (
          <label key={right} htmlFor={`${idPrefix}-${right}`} className="flex min-h-11 items-center gap-2 text-sm sm:min-h-8">
            <input
              id={`${idPrefix}-${right}`}
              type="checkbox"
              className="size-4 accent-primary"
              checked={value.includes(right)}
              onChange={(e) => onChange(e.target.checked ? [...value, right] : value.filter((r) => r !== right))}
            />
            {RIGHT_LABELS[right]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
