import { type FormEvent, useState } from "react";
import { FolderPlus } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { FormDialog, FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { errorOf, focusControl, type FormProblem, serverProblem } from "@/lib/form-problem.ts";
import { trpc } from "@/lib/trpc.ts";

type NewClientFolderDialogProps = { clientId: string; clientName: string; parentFolderId: string | null; parentName: string | null };

/** A folder the firm makes in the client's tree, inside the folder shown; the client sees it at once. */
export function NewClientFolderDialog({ clientId, clientName, parentFolderId, parentName }: NewClientFolderDialogProps) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<FormProblem<"name"> | null>(null);
  const utils = trpc.useUtils();
  const create = trpc.admin.clients.createFolder.useMutation({
    onSuccess: (folder) => {
      toast.success(`Folder ${folder.name} created for ${clientName}`);
      setOpen(false);
      void utils.admin.clients.folders.invalidate({ id: clientId });
    },
    onError: (err) => {
      const found = serverProblem(err, "Failed to create folder", { name: /name/i });
      setProblem(found);
      if (found.field) focusControl("client-folder-name");
    },
  });

  function changeOpen(next: boolean) {
    if (next) {
      setName("");
      setProblem(null);
    }
    setOpen(next);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // As the client's own dialog: a blank name does nothing.
    if (name.trim() === "" || create.isPending) return;
    create.mutate({ id: clientId, name: name.trim(), parent_folder_id: parentFolderId });
  }

  return (
    <FormDialog
      open={open}
      onOpenChange={changeOpen}
      trigger={
        <Button variant="outline">
          <FolderPlus aria-hidden="true" />
          New Folder
        </Button>
      }
      className="max-w-md"
      title={<>New folder for {clientName}</>}
      description={
        <>
          {parentName ? `Inside "${parentName}".` : "At the top level of their documents, outside any folder."} They see it in their documents at
          once.
        </>
      }
      onSubmit={submit}
      formLabel="New folder"
    >
      <FormField id="client-folder-name" label="Folder name" error={errorOf(problem, "name")}>
        <Input autoComplete="off" maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
      </FormField>
      <FormDialogFooter problem={problem} pending={create.isPending} submitLabel="Create Folder" pendingLabel="Creating..." />
    </FormDialog>
  );
}
