import { type FormEvent, useState } from "react";
import { Briefcase, Check, Pencil, Plus, RotateCcw, Trash2 } from "lucide-react";
import { SettingsSection } from "@/components/settings-section.tsx";
import { Badge } from "@/components/ui/badge.tsx";
import { Button } from "@/components/ui/button.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { focusMoveButton, MoveButtons, moveButtonId } from "@/components/ui/move-buttons.tsx";
import { Select } from "@/components/ui/select.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import {
  OTHER_CHOICE,
  parseServiceList,
  type Service,
  SERVICE_ICONS,
  type ServiceIcon,
  serviceListSchema,
  serviceSchema,
  type SiteContentEditorEntry,
} from "@server/domains/site/schemas.ts";
import { useResetSiteContent, useUpdateSiteContent } from "./use-update-site-content.ts";
import { useSiteContentEditor } from "./use-site-content-editor.ts";

const ICON_LABELS: Record<ServiceIcon, string> = {
  calculator: "Calculator",
  "file-text": "Document",
  stamp: "Stamp",
  "clipboard-list": "Checklist",
  wallet: "Wallet",
  "trending-up": "Growth chart",
  briefcase: "Briefcase",
};

const NAME = "services.list";
const ID = "site-services-list";

type Status = { kind: "idle" } | { kind: "saving" } | { kind: "saved" } | { kind: "reset" } | { kind: "failed"; detail: string };
type Draft = { title: string; description: string; icon: ServiceIcon; link: string; link_text: string; offered: boolean; form_label: string };
type Editing = { index: number; isNew: boolean; values: Draft; errors: Partial<Record<keyof Draft, string>> };

const draftOf = (service: Service): Draft => ({ ...service, offered: service.form_label !== "" });

/** A new service's id from its title: the consultation form's value for it, kept when the title changes later. */
function newId(title: string, taken: ReadonlySet<string>): string {
  const base =
    title
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 32) || "service";
  const start = base === OTHER_CHOICE.value ? `${base}-service` : base;
  let id = start;
  for (let n = 2; taken.has(id); n++) id = `${start}-${n}`;
  return id;
}

/**
 * The firm's services (site content `services.list`, docs/site-content.md, Services): the cards of
 * the home page, the footer's list and the consultation form's choices, in this order. Each change
 * (Done, a move, Remove) is saved at once, as the other fields of the Site tab are, and says so by
 * the list: "Updated services.list", or why not.
 */
export function ServicesEditor() {
  const live = useSiteContentEditor();
  const entry = live.data?.services.list;
  return (
    <SettingsSection
      headingId="services-editor-heading"
      icon={Briefcase}
      title="Services"
      description="The cards of the home page's Services section, the footer's list and the consultation form's choices, in this order. The form always ends with Other."
    >
      {entry ? <ServiceList entry={entry} /> : <Spinner label="Loading the services…" />}
    </SettingsSection>
  );
}

function ServiceList({ entry }: { entry: SiteContentEditorEntry }) {
  const update = useUpdateSiteContent("services", "list");
  const reset = useResetSiteContent("services", "list");
  const [draft, setDraft] = useState<Service[] | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const list = draft ?? parseServiceList(entry.value) ?? [];
  const busy = update.isPending || reset.isPending;

  function persist(next: Service[]) {
    setDraft(next);
    setStatus({ kind: "saving" });
    update.mutate(
      { section: "services", key: "list", value: JSON.stringify(next) },
      {
        onSuccess: () => {
          setDraft(null);
          setStatus({ kind: "saved" });
        },
        onError: (error) => {
          setDraft(null);
          setStatus({ kind: "failed", detail: errorDetail(error) ?? `Failed to update ${NAME}` });
        },
      },
    );
  }

  function move(index: number, by: -1 | 1) {
    const next = [...list];
    const [moved] = next.splice(index, 1);
    if (!moved) return;
    next.splice(index + by, 0, moved);
    persist(next);
    requestAnimationFrame(() => focusMoveButton(moveButtonId(moved.id, by)));
  }

  function add() {
    setEditing({
      index: list.length,
      isNew: true,
      values: { title: "", description: "", icon: "briefcase", link: "", link_text: "", offered: true, form_label: "" },
      errors: {},
    });
  }

  function done() {
    if (!editing) return;
    const { values, index, isNew } = editing;
    const id = isNew ? newId(values.title, new Set(list.map((s) => s.id))) : list[index]!.id;
    const parsed = serviceSchema.safeParse({
      id,
      title: values.title,
      description: values.description,
      icon: values.icon,
      link: values.link,
      link_text: values.link_text,
      // Offered without a name of its own: the form names it as the card does.
      form_label: values.offered ? values.form_label.trim() || values.title : "",
    });
    if (!parsed.success) {
      const errors: Editing["errors"] = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === "form_label" ? "form_label" : (issue.path[0] as keyof Draft);
        errors[field] ??= issue.message;
      }
      setEditing({ ...editing, errors });
      return;
    }
    const next = isNew ? [...list, parsed.data] : list.map((s, i) => (i === index ? parsed.data : s));
    // What only the whole list can say (a form choice named twice), by the field it concerns.
    const whole = serviceListSchema.safeParse(next);
    if (!whole.success) {
      setEditing({ ...editing, errors: { form_label: whole.error.issues[0]?.message } });
      return;
    }
    setEditing(null);
    persist(next);
    requestAnimationFrame(() => document.getElementById(`service-${parsed.data.id}-edit`)?.focus());
  }

  function resetToDefault() {
    setEditing(null);
    setStatus({ kind: "saving" });
    reset.mutate(
      { section: "services", key: "list" },
      {
        onSuccess: () => setStatus({ kind: "reset" }),
        onError: (error) => setStatus({ kind: "failed", detail: errorDetail(error) ?? `Failed to update ${NAME}` }),
      },
    );
  }

  const rows = editing?.isNew ? [...list, null] : list;
  return (
    <div className="grid gap-3">
      <div className="flex min-h-5 flex-wrap items-center gap-x-2 gap-y-1">
        {entry.isDefault && draft === null ? (
          <Badge id={`${ID}-default`} variant="muted">
            Default
          </Badge>
        ) : (
          <Button
            variant="link"
            className="text-xs"
            disabled={busy || editing !== null}
            onClick={resetToDefault}
            aria-label="Reset to default: Services"
          >
            <RotateCcw aria-hidden="true" className="size-3" />
            Reset to default
          </Button>
        )}
        <p id={`${ID}-status`} aria-live="polite" className="ml-auto text-xs text-muted-foreground">
          <StatusText status={status} />
        </p>
      </div>
      {status.kind === "failed" && (
        <p role="alert" className="text-sm text-destructive">
          {status.detail}
        </p>
      )}
      <ol aria-label="Services" className="grid gap-3">
        {rows.map((service, index) =>
          editing?.index === index ? (
            <li key={service?.id ?? "new"} className="rounded-lg border border-ring/60 bg-background p-4">
              <ServiceForm
                editing={editing}
                onChange={(values) => setEditing({ ...editing, values })}
                onDone={done}
                onCancel={() => setEditing(null)}
              />
            </li>
          ) : service ? (
            <li key={service.id} className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-start sm:justify-between">
              <div className="grid min-w-0 gap-1 text-sm">
                <p className="font-medium break-words">{service.title}</p>
                {service.description && <p className="break-words text-muted-foreground">{service.description}</p>}
                <p className="text-xs text-muted-foreground">
                  {service.form_label ? `In the consultation form as “${service.form_label}”` : "Not in the consultation form"}
                  {service.link && ` · Links to ${service.link}`}
                </p>
              </div>
              <div className="flex shrink-0 flex-wrap items-center gap-1">
                <MoveButtons
                  id={service.id}
                  what={service.title}
                  first={index === 0}
                  last={index === list.length - 1}
                  onMove={(by) => move(index, by)}
                />
                <Button
                  id={`service-${service.id}-edit`}
                  variant="outline"
                  size="sm"
                  disabled={editing !== null}
                  onClick={() => setEditing({ index, isNew: false, values: draftOf(service), errors: {} })}
                  aria-label={`Edit ${service.title}`}
                >
                  <Pencil aria-hidden="true" />
                  Edit
                </Button>
                <Button
                  variant="ghost-destructive"
                  size="sm"
                  // The site always has a service; Reset to default brings back the six.
                  disabled={editing !== null || busy || list.length === 1}
                  onClick={() => persist(list.filter((_, i) => i !== index))}
                  aria-label={`Remove ${service.title}`}
                >
                  <Trash2 aria-hidden="true" />
                  Remove
                </Button>
              </div>
            </li>
          ) : null,
        )}
      </ol>
      <Button variant="outline" className="w-fit" onClick={add} disabled={editing !== null || busy}>
        <Plus aria-hidden="true" />
        Add a service
      </Button>
    </div>
  );
}

function ServiceForm({
  editing,
  onChange,
  onDone,
  onCancel,
}: {
  editing: Editing;
  onChange: (values: Draft) => void;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { values, errors } = editing;
  const prefix = `service-form`;
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => onChange({ ...values, [key]: value });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onDone();
  }

  return (
    <form
      noValidate
      onSubmit={submit}
      onKeyDown={(event) => event.key === "Escape" && onCancel()}
      className="grid gap-4"
      aria-label={editing.isNew ? "New service" : `Edit ${values.title || "service"}`}
    >
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <FormField id={`${prefix}-title`} label="Title" error={errors.title} required>
          <Input autoFocus value={values.title} onChange={(e) => set("title", e.target.value)} />
        </FormField>
        <FormField id={`${prefix}-icon`} label="Icon" error={errors.icon}>
          <Select value={values.icon} onChange={(e) => set("icon", e.target.value as ServiceIcon)}>
            {SERVICE_ICONS.map((icon) => (
              <option key={icon} value={icon}>
                {ICON_LABELS[icon]}
              </option>
            ))}
          </Select>
        </FormField>
      </div>
      <FormField id={`${prefix}-description`} label="Description" error={errors.description} hint="Two lines on the card, at most 300 characters.">
        <Textarea rows={2} value={values.description} onChange={(e) => set("description", e.target.value)} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id={`${prefix}-link`}
          label="Link (optional)"
          error={errors.link}
          hint="Another site (https://…) opens in a new tab; a page of this site, like /terms, in the same."
        >
          <Input inputMode="url" value={values.link} onChange={(e) => set("link", e.target.value)} />
        </FormField>
        <FormField id={`${prefix}-link-text`} label="Link text" error={errors.link_text} hint={`Empty: “More about ${values.title || "…"}”.`}>
          <Input value={values.link_text} onChange={(e) => set("link_text", e.target.value)} />
        </FormField>
      </div>
      <div className="grid gap-3 rounded-md border bg-muted/30 p-3">
        <label className="flex min-h-11 items-center gap-2 text-sm font-medium sm:min-h-9">
          <input type="checkbox" className="size-4 accent-accent" checked={values.offered} onChange={(e) => set("offered", e.target.checked)} />
          Offer it in the consultation form
        </label>
        {values.offered && (
          <FormField id={`${prefix}-form-label`} label="Its name in the form" error={errors.form_label} hint="Empty: the title.">
            <Input value={values.form_label} onChange={(e) => set("form_label", e.target.value)} />
          </FormField>
        )}
      </div>
      <div className="flex gap-2">
        <Button type="submit" size="sm">
          Done
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** The specification's words for a site-content change: "Updated services.list", "Failed to update services.list". */
function StatusText({ status }: { status: Status }) {
  switch (status.kind) {
    case "saving":
      return "Saving…";
    case "saved":
    case "reset":
      return (
        <span className="inline-flex items-center gap-1 text-accent-soft-foreground">
          <Check aria-hidden="true" className="size-3.5" />
          {status.kind === "reset" ? `Updated ${NAME}: default restored` : `Updated ${NAME}`}
        </span>
      );
    case "failed":
      return <span className="text-destructive">Failed to update {NAME}</span>;
    default:
      return null;
  }
}
