import { type FormEvent, useState } from "react";
import { LayoutList, Pencil, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import type { RequestTemplate } from "@server/domains/requests/schemas.ts";
import { ItemsEditor, type ItemRow, itemRows, itemTitles } from "./items-editor.tsx";
import { useCreateRequestTemplate, useDeleteRequestTemplate, useRequestTemplates, useUpdateRequestTemplate } from "./use-request-templates.ts";

/**
 * The requests the firm sends every season, kept as templates (issue 34): a title, a message and a
 * checklist, chosen under "Start from a template" in New request. Changing or deleting one never
 * changes a request already sent.
 */
export function RequestTemplatesDialog() {
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<RequestTemplate | "new" | null>(null);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setEditing(null);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">
          <LayoutList aria-hidden="true" />
          Templates
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{editing === null ? "Request templates" : editing === "new" ? "New template" : "Edit template"}</DialogTitle>
          <DialogDescription>
            {editing === null
              ? "Requests you send every season. Start a new request from one; requests already sent keep their own copy."
              : "The title, message and checklist a new request starts with."}
          </DialogDescription>
        </DialogHeader>
        {editing === null ? (
          <TemplateList onEdit={setEditing} />
        ) : (
          <TemplateForm key={editing === "new" ? "new" : editing.id} template={editing === "new" ? null : editing} onDone={() => setEditing(null)} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function TemplateList({ onEdit }: { onEdit: (template: RequestTemplate | "new") => void }) {
  const templates = useRequestTemplates();
  const remove = useDeleteRequestTemplate();
  if (templates.isError)
    return <LoadError message="Failed to load the templates" onRetry={() => void templates.refetch()} isRetrying={templates.isFetching} />;
  return (
    <div className="grid gap-4">
      {templates.data && templates.data.length === 0 && (
        <p className="text-sm text-muted-foreground">No templates yet. Save the requests you send every year.</p>
      )}
      {templates.data && templates.data.length > 0 && (
        <ul aria-label="Request templates" className="grid divide-y rounded-lg border">
          {templates.data.map((template) => (
            <li key={template.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
              <div className="min-w-0">
                <p className="font-medium break-words [overflow-wrap:anywhere]">{template.title}</p>
                <p className="text-xs text-muted-foreground">{template.items.length === 1 ? "1 item" : `${template.items.length} items`}</p>
              </div>
              <div className="flex gap-1">
                <Button variant="ghost" size="sm" onClick={() => onEdit(template)}>
                  <Pencil aria-hidden="true" />
                  Edit<span className="sr-only"> {template.title}</span>
                </Button>
                <ConfirmAction
                  trigger={
                    <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" disabled={remove.isPending}>
                      <Trash2 aria-hidden="true" />
                      Delete<span className="sr-only"> {template.title}</span>
                    </Button>
                  }
                  title="Delete this template?"
                  question={`“${template.title}” goes from the list. Requests already sent from it keep their checklists.`}
                  confirmLabel="Delete template"
                  onConfirm={() => remove.mutate({ id: template.id })}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
      <DialogFooter>
        <Button onClick={() => onEdit("new")}>
          <Plus aria-hidden="true" />
          New template
        </Button>
      </DialogFooter>
    </div>
  );
}

function TemplateForm({ template, onDone }: { template: RequestTemplate | null; onDone: () => void }) {
  const [title, setTitle] = useState(template?.title ?? "");
  const [description, setDescription] = useState(template?.description ?? "");
  const [items, setItems] = useState<ItemRow[]>(() => itemRows(template?.items.map((item) => item.title) ?? []));
  const [error, setError] = useState<string | undefined>();
  const create = useCreateRequestTemplate();
  const update = useUpdateRequestTemplate();
  const saving = create.isPending || update.isPending;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!title.trim()) {
      setError("Title is required");
      return;
    }
    const values = { title: title.trim(), description: description.trim(), items: itemTitles(items) };
    if (template) update.mutate({ id: template.id, ...values }, { onSuccess: onDone });
    else create.mutate(values, { onSuccess: onDone });
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <FormField id="template-title" label="Title" error={error} required>
        <Input
          value={title}
          placeholder="2025 tax documents"
          maxLength={200}
          onChange={(event) => {
            setTitle(event.target.value);
            if (event.target.value.trim()) setError(undefined);
          }}
        />
      </FormField>
      <FormField id="template-description" label="Message for the client">
        <Textarea rows={3} value={description} onChange={(event) => setDescription(event.target.value)} maxLength={5000} />
      </FormField>
      <ItemsEditor rows={items} onChange={setItems} />
      <DialogFooter>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving}>
          {saving ? "Saving..." : "Save template"}
        </Button>
      </DialogFooter>
    </form>
  );
}
