import { type FormEvent, useState } from "react";
import { ArrowLeft, Copy, Eye, FileSpreadsheet, Pencil, Send } from "lucide-react";
import { Link } from "react-router";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatCalendarDate, formatDate } from "@/lib/format.ts";
import { trpc } from "@/lib/trpc.ts";
import type { AdminOrganizerListItem } from "@server/domains/organizers/schemas.ts";
import { OrganizerReview } from "./organizer-review.tsx";
import { OrganizerStatusBadge } from "./status-badge.tsx";
import { OrganizerSendFields } from "./send-fields.tsx";

type Account = { id: string; name: string };

/** A client's organizers on its record: send one from the firm's templates, follow them, open one to review. */
export function OrganizersSection({ account }: { account: Account }) {
  const [openId, setOpenId] = useState<string | null>(null);
  if (openId) {
    return (
      <div className="grid gap-4">
        <Button variant="ghost" size="sm" className="w-fit" onClick={() => setOpenId(null)}>
          <ArrowLeft aria-hidden="true" />
          All organizers
        </Button>
        <OrganizerReview id={openId} />
      </div>
    );
  }
  return (
    <section aria-labelledby="organizers-section-heading" className="grid gap-4">
      <div>
        <h2 id="organizers-section-heading" className="text-xl font-semibold">
          Organizers
        </h2>
        <p className="text-sm text-muted-foreground">The yearly questionnaire: send one, then review the answers as they come in.</p>
      </div>
      <SendOrganizer account={account} />
      <OrganizerList accountId={account.id} onOpen={setOpenId} />
    </section>
  );
}

function SendOrganizer({ account }: { account: Account }) {
  const utils = trpc.useUtils();
  const templates = trpc.admin.organizers.templates.useQuery(undefined, { retry: false });
  const ready = trpc.admin.organizers.readyTemplates.useQuery(undefined, { retry: false, enabled: templates.data?.length === 0 });
  const copy = trpc.admin.organizers.createTemplate.useMutation();
  const create = trpc.admin.organizers.create.useMutation();
  const [templateId, setTemplateId] = useState("");
  const [title, setTitle] = useState("");
  const [due, setDue] = useState("");
  const [error, setError] = useState<string | undefined>();

  if (templates.isPending) return <Spinner label="Loading organizer templates…" />;
  if (templates.isError)
    return <LoadError message="Failed to load organizer templates" onRetry={() => void templates.refetch()} isRetrying={templates.isFetching} />;

  const chosen = templates.data.find((t) => t.id === templateId) ?? templates.data[0];

  const onCopy = async (name: string, template: NonNullable<typeof ready.data>[number]["template"]) => {
    try {
      const made = await copy.mutateAsync({ name, template });
      await utils.admin.organizers.templates.invalidate();
      setTemplateId(made.id);
      toast.success(`“${name}” copied to your templates`);
    } catch (err) {
      toast.error(errorDetail(err) ?? "Copying the template failed");
    }
  };

  const onSend = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    setError(undefined);
    try {
      await create.mutateAsync({
        account_id: account.id,
        template_id: chosen.id,
        title: title.trim() || chosen.name,
        due_date: due || null,
        draft: false,
      });
      await utils.admin.organizers.list.invalidate();
      setTitle("");
      setDue("");
      toast.success(`Organizer sent to ${account.name}`);
    } catch (err) {
      setError(errorDetail(err) ?? "Sending failed");
    }
  };

  if (templates.data.length === 0) {
    return (
      <div className="grid gap-3 rounded-xl border bg-card p-4 sm:p-6">
        <h3 className="font-medium">Send an organizer</h3>
        <p className="text-sm text-muted-foreground">Your firm has no organizer template yet. Start from the one the portal ships, and send it.</p>
        {ready.data?.map((t) => (
          <Button key={t.key} variant="outline" className="w-fit" disabled={copy.isPending} onClick={() => void onCopy(t.name, t.template)}>
            <Copy aria-hidden="true" />
            Copy the {t.name}
          </Button>
        ))}
      </div>
    );
  }

  return (
    <form onSubmit={(e) => void onSend(e)} aria-labelledby="send-organizer-heading" className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6">
      <h3 id="send-organizer-heading" className="font-medium">
        Send an organizer
      </h3>
      <OrganizerSendFields
        templates={templates.data}
        chosen={chosen}
        onTemplate={setTemplateId}
        title={title}
        onTitle={setTitle}
        due={due}
        onDue={setDue}
        titleError={error}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="accent" disabled={create.isPending || !chosen}>
          <Send aria-hidden="true" />
          {create.isPending ? "Sending…" : "Send organizer"}
        </Button>
        <Button asChild variant="ghost" size="sm">
          <Link to="/admin/dashboard?tab=organizers">
            <Pencil aria-hidden="true" />
            Edit templates
          </Link>
        </Button>
        {chosen && (
          <Button asChild variant="ghost" size="sm">
            <a href={`/api/admin/organizer-templates/${chosen.id}/answers.csv`} download>
              <FileSpreadsheet aria-hidden="true" />
              Answers of all clients (CSV)
            </a>
          </Button>
        )}
      </div>
    </form>
  );
}

function OrganizerList({ accountId, onOpen }: { accountId: string; onOpen: (id: string) => void }) {
  const list = trpc.admin.organizers.list.useQuery({ account_id: accountId, limit: 100 }, { retry: false });
  if (list.isPending) return <Spinner label="Loading organizers…" />;
  if (list.isError) return <LoadError message="Failed to load organizers" onRetry={() => void list.refetch()} isRetrying={list.isFetching} />;
  if (list.data.items.length === 0) return <p className="text-sm text-muted-foreground">No organizers sent to this client yet.</p>;
  return (
    <ul aria-label="Organizers sent" className="grid divide-y overflow-hidden rounded-xl border bg-card">
      {list.data.items.map((o) => (
        <OrganizerRow key={o.id} organizer={o} onOpen={() => onOpen(o.id)} />
      ))}
    </ul>
  );
}

function OrganizerRow({ organizer, onOpen }: { organizer: AdminOrganizerListItem; onOpen: () => void }) {
  return (
    <li aria-label={organizer.title} className="flex flex-wrap items-center justify-between gap-3 p-4">
      <div className="grid min-w-0 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium break-words">{organizer.title}</span>
          <OrganizerStatusBadge status={organizer.status} />
        </div>
        <span className="text-sm text-muted-foreground">
          {organizer.submitted_at && organizer.status === "submitted"
            ? `Submitted ${formatDate(organizer.submitted_at)}`
            : organizer.sent_at
              ? `Sent ${formatDate(organizer.sent_at)}`
              : "Not sent"}
          {organizer.due_date && ` · Due ${formatCalendarDate(organizer.due_date)}`}
        </span>
      </div>
      <Button variant="outline" size="sm" onClick={onOpen} aria-label={`Open ${organizer.title}`}>
        <Eye aria-hidden="true" />
        Open
      </Button>
    </li>
  );
}
