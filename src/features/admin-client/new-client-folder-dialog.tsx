import { type FormEvent, useState } from "react";
import { FolderPlus } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
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
  const create = trpc.admin.createClientFolder.useMutation({
    onSuccess: (folder) => {
      toast.success(`Folder ${folder.name} created for ${clientName}`);
      setOpen(false);
      void utils.admin.clientFolders.invalidate({ id: clientId });
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
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <FolderPlus aria-hidden="true" />
          New Folder
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>New folder for {clientName}</DialogTitle>
          <DialogDescription>
            {parentName ? `Inside "${parentName}".` : "In their root folder."} They see it in their documents at once.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4" aria-label="New folder">
          <FormField id="client-folder-name" label="Folder name" error={errorOf(problem, "name")}>
            <Input autoComplete="off" maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
          </FormField>
          <FormAlert message={problem && !problem.field ? problem.message : null} />
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? "Creating..." : "Create Folder"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
