import { OrganizerForm } from "@/features/organizers/organizer-form.tsx";
import { useOwnOrganizer } from "@/features/organizers/use-organizers.ts";
import { PortalItem, PortalItemPage } from "./portal-item-page.tsx";

/** /organizers/:id: one organizer the firm sent, to fill in (issue 36). */
export function OrganizerPage() {
  return <PortalItemPage>{(id) => <Organizer key={id} id={id} />}</PortalItemPage>;
}

function Organizer({ id }: { id: string }) {
  const organizer = useOwnOrganizer(id);
  return (
    <PortalItem query={organizer} noun="organizer">
      {(data) => <OrganizerForm organizer={data} />}
    </PortalItem>
  );
}
