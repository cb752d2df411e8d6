import { type FormEvent, useState } from "react";
import { Plus } from "lucide-react";
import { AccountPicker, type PickedAccount } from "@/components/account-picker/account-picker.tsx";
import { Button } from "@/components/ui/button.tsx";
import { DialogFooter } from "@/components/ui/dialog.tsx";
import { DialogFrame } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Select } from "@/components/ui/select.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { ItemsEditor, type ItemRow, itemRows, itemTitles } from "./items-editor.tsx";
import { useCreateRequest } from "./use-create-request.ts";
import { useRequestFolders } from "./use-request-folders.ts";
import { useRequestTemplates } from "./use-request-templates.ts";

/** `client`: asked from a client's record, for that client (no picker). */
type RequestClient = { id: string; name: string };

export function NewRequestDialog({ client }: { client?: RequestClient } = {}) {
  const [open, setOpen] = useState(false);
  return (
    <DialogFrame
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="accent">
          <Plus aria-hidden="true" />
          New request
        </Button>
      }
      className="max-w-xl"
      title="New document request"
      description="Ask a client for documents. They are emailed and see the request first on their dashboard."
    >
      {open && <NewRequestForm fixedClient={client} onCreated={() => setOpen(false)} />}
    </DialogFrame>
  );
}

type Errors = Partial<Record<"client" | "title", string>>;

function NewRequestForm({ fixedClient, onCreated }: { fixedClient?: RequestClient; onCreated: () => void }) {
  const [picked, setClient] = useState<PickedAccount | null>(null);
  const client: RequestClient | null = fixedClient ?? picked;
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [dueDate, setDueDate] = useState("");
  const [folderId, setFolderId] = useState("");
  const [items, setItems] = useState<ItemRow[]>([]);
  const [templateId, setTemplateId] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const folders = useRequestFolders(client?.id ?? null);
  const templates = useRequestTemplates();
  const create = useCreateRequest();

  /** A template fills in the title, the details and the checklist, all still editable here. */
  function startFrom(id: string) {
    setTemplateId(id);
    const template = templates.data?.find((t) => t.id === id);
    if (!template) return;
    setTitle(template.title);
    setDescription(template.description);
    setItems(itemRows(template.items.map((item) => item.title)));
    setErrors(({ title: _, ...rest }) => rest);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Errors = {};
    if (!client) found.client = "Please choose a client";
    if (!title.trim()) found.title = "Title is required";
    setErrors(found);
    if (!client || Object.keys(found).length > 0) return;
    create.mutate(
      {
        account_id: client.id,
        title: title.trim(),
        description: description.trim(),
        due_date: dueDate || null,
        folder_id: folderId || null,
        items: itemTitles(items),
        ...(templateId ? { template_id: templateId } : {}),
      },
      { onSuccess: onCreated },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      {fixedClient ? (
        <p className="text-sm">
          For <span className="font-medium">{fixedClient.name}</span>
        </p>
      ) : (
        <AccountPicker
          selected={picked}
          onSelect={(account) => {
            setClient(account);
            setFolderId("");
            setErrors(({ client: _, ...rest }) => rest);
          }}
          error={errors.client}
        />
      )}

      {(templates.data?.length ?? 0) > 0 && (
        <FormField
          id="request-template"
          label="Start from a template"
          hint="Fills in the title, details and checklist; change anything before sending."
        >
          <Select value={templateId} onChange={(event) => startFrom(event.target.value)}>
            <option value="">No template</option>
            {templates.data?.map((template) => (
              <option key={template.id} value={template.id}>
                {template.title}
              </option>
            ))}
          </Select>
        </FormField>
      )}

      <FormField id="request-title" label="What do you need?" error={errors.title} required>
        <Input
          value={title}
          placeholder="2025 W-2 forms"
          onChange={(event) => {
            setTitle(event.target.value);
            if (event.target.value.trim()) setErrors(({ title: _, ...rest }) => rest);
          }}
          maxLength={200}
        />
      </FormField>
      <FormField id="request-description" label="Details for the client">
        <Textarea rows={3} value={description} onChange={(event) => setDescription(event.target.value)} maxLength={5000} />
      </FormField>
      <ItemsEditor rows={items} onChange={setItems} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="request-due-date" label="Due date" hint="Reminders go 3 days before and on the day.">
          <Input type="date" value={dueDate} onChange={(event) => setDueDate(event.target.value)} />
        </FormField>
        <FormField id="request-folder" label="Folder for the uploads" hint={client ? undefined : "Choose a client first."}>
          <Select value={folderId} disabled={!client || folders.isPending} onChange={(event) => setFolderId(event.target.value)}>
            <option value="">Where the client chooses</option>
            {folders.data?.map((folder) => (
              <option key={folder.id} value={folder.id}>
                {folder.path}
              </option>
            ))}
          </Select>
        </FormField>
      </div>
      <DialogFooter>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Sending..." : "Send request"}
        </Button>
      </DialogFooter>
    </form>
  );
}
