import { useState } from "react";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs.tsx";
import { AppointmentList } from "./appointment-list.tsx";
import { AvailabilityEditor } from "./availability-editor.tsx";
import { MeetingTypesSection } from "./meeting-types-section.tsx";
import { WeekView } from "./week-view.tsx";

const VIEWS = [
  { value: "list", label: "List" },
  { value: "week", label: "Week" },
  { value: "availability", label: "Availability" },
] as const;

/** The admin's appointments: the list with its controls, a week of bookings, and what clients may book. */
export function AppointmentsTab() {
  const [view, setView] = useState<string>("list");
  return (
    <Tabs value={view} onValueChange={setView}>
      <TabsList aria-label="Appointment views">
        {VIEWS.map((v) => (
          <TabsTrigger key={v.value} value={v.value}>
            {v.label}
          </TabsTrigger>
        ))}
      </TabsList>
      <TabsContent value="list">
        <AppointmentList />
      </TabsContent>
      <TabsContent value="week">
        <WeekView />
      </TabsContent>
      <TabsContent value="availability" className="grid gap-6">
        <MeetingTypesSection />
        <AvailabilityEditor />
      </TabsContent>
    </Tabs>
  );
}
