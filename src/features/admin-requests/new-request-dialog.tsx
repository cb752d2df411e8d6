import { type FormEvent, useState } from "react";
import { Plus } from "lucide-react";
import { ClientPicker } from "@/components/client-picker/client-picker.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Select } from "@/components/ui/select.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import type { PublicUser } from "@server/domains/auth/schemas.ts";
import { useCreateRequest } from "./use-create-request.ts";
import { useRequestFolders } from "./use-request-folders.ts";

export function NewRequestDialog() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="accent">
          <Plus aria-hidden="true" />
          New request
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>New document request</DialogTitle>
          <DialogDescription>Ask a client for documents. They are emailed and see the request first on their dashboard.</DialogDescription>
        </DialogHeader>
        {open && <NewRequestForm onCreated={() => setOpen(false)} />}
      </DialogContent>
    </Dialog>
  );
}

type Errors = Partial<Record<"client" | "title", string>>;

function NewRequestForm({ onCreated }: { onCreated: () => void }) {
  const [client, setClient] = useState<PublicUser | null>(null);
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [dueDate, setDueDate] = useState("");
  const [folderId, setFolderId] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const folders = useRequestFolders(client?.id ?? null);
  const create = useCreateRequest();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Errors = {};
    if (!client) found.client = "Please choose a client";
    if (!title.trim()) found.title = "Title is required";
    setErrors(found);
    if (!client || Object.keys(found).length > 0) return;
    create.mutate(
      { user_id: client.id, title: title.trim(), description: description.trim(), due_date: dueDate || null, folder_id: folderId || null },
      { onSuccess: onCreated },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <ClientPicker
        selected={client}
        onSelect={(user) => {
          setClient(user);
          setFolderId("");
          setErrors(({ client: _, ...rest }) => rest);
        }}
        error={errors.client}
      />

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
