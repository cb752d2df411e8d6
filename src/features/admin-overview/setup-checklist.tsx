import { CheckCircle2, Circle, ListChecks } from "lucide-react";
import { Link } from "react-router";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Progress } from "@/components/ui/progress.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import type { SetupStep } from "@server/domains/firm-setup/schemas.ts";
import { useHideSetupChecklist, useSetupChecklist } from "./use-setup-checklist.ts";

const SITE = "/admin/dashboard?tab=site";

/** What each step asks and where it is done (a tab of this dashboard). */
const STEPS: Record<SetupStep, { label: string; what: string; to: string }> = {
  firm_name: { label: "Firm name", what: "Put your firm's name on the site instead of the sample name.", to: SITE },
  logo: { label: "Logo", what: "Replace the sample logo with your own.", to: SITE },
  contact: { label: "Contact details", what: "Your phone number, email and address.", to: SITE },
  hours: { label: "Opening hours", what: "Set your weekly hours (Appointments) or write them in your own words (Site, Contact).", to: SITE },
  testimonials: { label: "Testimonials", what: "Replace the sample testimonials with your clients' words.", to: SITE },
  video: { label: "Welcome video", what: "Put your own welcome video in place of the sample.", to: SITE },
  availability: {
    label: "Availability",
    what: "Your weekly hours and at least one meeting type clients can book.",
    to: "/admin/dashboard?tab=appointments",
  },
  invite_clients: { label: "Invite clients", what: "Invite your first client to the portal.", to: "/admin/dashboard?tab=users" },
};

/** The first-day checklist (issue 31): each step ticks itself from the firm's data; the admin may hide it. */
export function SetupChecklist() {
  const checklist = useSetupChecklist();
  const hide = useHideSetupChecklist();
  if (!checklist.data) return null;
  const { items, hidden } = checklist.data;
  const setHidden = (value: boolean) =>
    hide.mutate({ hidden: value }, { onError: (err) => toast.error(errorDetail(err) ?? "The checklist could not be changed.") });

  if (hidden) {
    return (
      <div>
        <Button variant="link" disabled={hide.isPending} onClick={() => setHidden(false)}>
          <ListChecks aria-hidden="true" className="size-4" />
          Show the first-day checklist
        </Button>
      </div>
    );
  }

  const done = items.filter((item) => item.done).length;
  const allDone = done === items.length;
  return (
    <section aria-labelledby="setup-checklist-heading" className="grid gap-4 rounded-xl border bg-card p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <h2 id="setup-checklist-heading" className="text-lg font-semibold">
            First-day checklist
          </h2>
          <p className="text-sm text-muted-foreground" id="setup-checklist-progress">
            {allDone
              ? "All set: your site and portal are ready for your clients."
              : `${done} of ${items.length} done. Each step ticks itself when it is done.`}
          </p>
        </div>
        <Button variant={allDone ? "accent" : "outline"} size="sm" disabled={hide.isPending} onClick={() => setHidden(true)}>
          {allDone ? "Dismiss checklist" : "Hide checklist"}
        </Button>
      </div>
      <Progress value={(done / items.length) * 100} aria-labelledby="setup-checklist-progress" />
      <ul className="grid gap-x-6 gap-y-1 md:grid-cols-2">
        {items.map((item) => {
          const step = STEPS[item.id];
          return (
            <li key={item.id} data-step={item.id} data-done={item.done} className="flex items-start gap-3 rounded-lg py-2">
              {item.done ? (
                <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent" />
              ) : (
                <Circle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
              )}
              <div className="grid min-w-0 gap-0.5">
                <Link to={step.to} className="w-fit font-medium underline-offset-4 hover:underline">
                  {step.label}
                  <span className="sr-only">{item.done ? " (done)" : " (not done yet)"}</span>
                </Link>
                <span className="text-sm text-muted-foreground">{step.what}</span>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
