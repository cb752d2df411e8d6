import { type FormEvent, useState } from "react";
import { Copy, FileSpreadsheet, Pencil, Plus, Trash2 } from "lucide-react";
import { useSearchParams } from "react-router";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { FormDialog, FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { errorDetail } from "@/lib/api-error.ts";
import { formatDate } from "@/lib/format.ts";
import { topQuestions } from "@/lib/organizer-rules.ts";
import { trpc } from "@/lib/trpc.ts";
import type { TemplateOutput } from "@server/domains/organizers/schemas.ts";
import { BulkSend } from "./bulk-send.tsx";
import { TemplateEditor } from "./template-editor.tsx";

/**
 * The admin portal's Organizers tab: the firm's templates (copy the ready one, start a new one,
 * edit, delete) and sending one to many clients at once. `?template=<id>` opens the editor, so a
 * link (and Back) keeps it.
 */
export function OrganizersTab() {
  const [searchParams, setSearchParams] = useSearchParams();
  const editing = searchParams.get("template");
  const open = (id: string | null) =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      if (id) next.set("template", id);
      else next.delete("template");
      return next;
    });
  if (editing) return <EditTemplate id={editing} onClose={() => open(null)} />;
  return (
    <div className="grid gap-6">
      <Templates onEdit={open} />
      <BulkSend />
    </div>
  );
}

function EditTemplate({ id, onClose }: { id: string; onClose: () => void }) {
  const template = trpc.admin.organizers.template.useQuery({ id }, { retry: false, refetchOnWindowFocus: false });
  if (template.data) return <TemplateEditor key={template.data.id} template={template.data} onClose={onClose} />;
  if (template.isError)
    return (
      <div className="grid gap-3">
        <LoadError
          message={errorDetail(template.error) ?? "Failed to load the template"}
          onRetry={() => void template.refetch()}
          isRetrying={template.isFetching}
        />
        <Button variant="outline" className="w-fit" onClick={onClose}>
          All templates
        </Button>
      </div>
    );
  return <Spinner label="Loading the template…" />;
}

const NEW_TEMPLATE = {
  sections: [
    { title: "About you", questions: [{ id: "q_first", label: "First question", type: "text" as const, required: false, sensitive: false }] },
  ],
};

function Templates({ onEdit }: { onEdit: (id: string) => void }) {
  const utils = trpc.useUtils();
  const templates = trpc.admin.organizers.templates.useQuery(undefined, { retry: false });
  const ready = trpc.admin.organizers.readyTemplates.useQuery(undefined, { retry: false });
  const create = trpc.admin.organizers.createTemplate.useMutation({ onSuccess: () => utils.admin.organizers.templates.invalidate() });
  const remove = trpc.admin.organizers.deleteTemplate.useMutation({ onSuccess: () => utils.admin.organizers.templates.invalidate() });

  const onCopy = async (name: string, template: TemplateOutput["template"]) => {
    try {
      const made = await create.mutateAsync({ name, template });
      toast.success(`“${name}” copied to your templates`);
      onEdit(made.id);
    } catch (err) {
      toast.error(errorDetail(err) ?? "Copying the template failed");
    }
  };

  const onDelete = async (template: TemplateOutput) => {
    try {
      await remove.mutateAsync({ id: template.id });
      toast.success(`“${template.name}” deleted`);
    } catch (err) {
      toast.error(errorDetail(err) ?? "Deleting the template failed");
    }
  };

  return (
    <section aria-labelledby="organizer-templates-heading" className="grid gap-4">
      <div className="grid gap-3 sm:flex sm:items-end sm:justify-between">
        <div>
          <h2 id="organizer-templates-heading" className="text-xl font-semibold">
            Organizer templates
          </h2>
          <p className="text-sm text-muted-foreground">
            The questionnaires your firm sends each season. Send one from a client's record, or to many below.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {ready.data?.map((t) => (
            <Button key={t.key} variant="outline" disabled={create.isPending} onClick={() => void onCopy(t.name, t.template)}>
              <Copy aria-hidden="true" />
              Copy the {t.name}
            </Button>
          ))}
          <NewTemplate onCreated={onEdit} />
        </div>
      </div>
      {templates.isPending ? (
        <Spinner label="Loading organizer templates…" />
      ) : templates.isError ? (
        <LoadError message="Failed to load organizer templates" onRetry={() => void templates.refetch()} isRetrying={templates.isFetching} />
      ) : templates.data.length === 0 ? (
        <p className="rounded-xl border bg-card p-4 text-sm text-muted-foreground sm:p-6">
          No templates yet. Copy the ready one the portal ships and adjust it, or start a new one.
        </p>
      ) : (
        <ul aria-label="Your organizer templates" className="grid divide-y overflow-hidden rounded-xl border bg-card">
          {templates.data.map((t) => {
            const questions = topQuestions(t.template).length;
            return (
              <li key={t.id} aria-label={t.name} className="flex flex-wrap items-center justify-between gap-3 p-4">
                <div className="grid min-w-0 gap-1">
                  <span className="font-medium break-words">{t.name}</span>
                  <span className="text-sm text-muted-foreground">
                    {t.template.sections.length} {t.template.sections.length === 1 ? "section" : "sections"} · {questions}{" "}
                    {questions === 1 ? "question" : "questions"} · {t.organizer_count === 0 ? "not sent yet" : `sent ${t.organizer_count}×`} · changed{" "}
                    {formatDate(t.updated_at)}
                  </span>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button variant="outline" size="sm" aria-label={`Edit ${t.name}`} onClick={() => onEdit(t.id)}>
                    <Pencil aria-hidden="true" />
                    Edit
                  </Button>
                  <Button asChild variant="ghost" size="sm">
                    <a href={`/api/admin/organizer-templates/${t.id}/answers.csv`} download>
                      <FileSpreadsheet aria-hidden="true" />
                      <span>
                        Answers<span className="sr-only"> to {t.name}</span> (CSV)
                      </span>
                    </a>
                  </Button>
                  <ConfirmAction
                    trigger={
                      <Button variant="ghost-destructive" size="sm" aria-label={`Delete ${t.name}`}>
                        <Trash2 aria-hidden="true" />
                        Delete
                      </Button>
                    }
                    title="Delete this template?"
                    question={`“${t.name}” leaves your list and can no longer be sent. Organizers already sent from it, and their answers, stay.`}
                    confirmLabel="Delete template"
                    onConfirm={() => void onDelete(t)}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function NewTemplate({ onCreated }: { onCreated: (id: string) => void }) {
  const utils = trpc.useUtils();
  const create = trpc.admin.organizers.createTemplate.useMutation();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | undefined>();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      const made = await create.mutateAsync({ name, template: NEW_TEMPLATE });
      await utils.admin.organizers.templates.invalidate();
      setOpen(false);
      setName("");
      onCreated(made.id);
    } catch (err) {
      setError(errorDetail(err) ?? "Creating the template failed");
    }
  };
  return (
    <FormDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="accent">
          <Plus aria-hidden="true" />
          New template
        </Button>
      }
      title="New organizer template"
      description="It starts with one section and one question; the editor opens next."
      onSubmit={(e) => void onSubmit(e)}
      formLabel="New organizer template"
    >
      <FormField label="Name" required error={error}>
        <Input value={name} maxLength={200} autoFocus onChange={(e) => setName(e.target.value)} />
      </FormField>
      <FormDialogFooter pending={create.isPending} submitLabel="Create and edit" pendingLabel="Creating…" variant="accent" />
    </FormDialog>
  );
}
