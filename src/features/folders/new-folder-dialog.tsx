import { type FormEvent, useState } from "react";
import { FolderPlus } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { Input } from "@/components/ui/input.tsx";
import { errorOf, focusControl, type FormProblem, serverProblem } from "@/lib/form-problem.ts";
import { DEFAULT_FOLDER_COLOR } from "@server/domains/folders/schemas.ts";
import { FolderColorField, type FolderColor } from "./folder-color-field.tsx";
import { useCreateFolder } from "./use-create-folder.ts";
import { useFolders } from "./use-folders.ts";

/** The New Folder dialog; the folder is created inside `parentFolderId` (null: the root). */
export function NewFolderDialog({ parentFolderId }: { parentFolderId: string | null }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [color, setColor] = useState<FolderColor>(DEFAULT_FOLDER_COLOR);
  const [onlyMe, setOnlyMe] = useState(false);
  const [problem, setProblem] = useState<FormProblem<"name"> | null>(null);
  const createFolder = useCreateFolder({ onCreated: () => setOpen(false) });
  // Inside a private folder a new one is private too (docs/decisions.md, "Private folders").
  const insidePrivate = useFolders().data?.find((f) => f.id === parentFolderId)?.is_private === true;
  const isPrivate = insidePrivate || onlyMe;

  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (next) {
      setName("");
      setColor(DEFAULT_FOLDER_COLOR);
      setOnlyMe(false);
      setProblem(null);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Spec: a blank name does nothing, without a message.
    if (name.trim() === "" || createFolder.isPending) return;
    setProblem(null);
    createFolder.mutate(
      { name: name.trim(), parent_folder_id: parentFolderId, color, ...(onlyMe ? { private: true } : {}) },
      {
        onError: (err) => {
          // "A folder named ... already exists here" and the name's own limits belong to the name field.
          const found = serverProblem(err, "Failed to create folder", { name: /name/i });
          setProblem(found);
          if (found.field) focusControl("new-folder-name");
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button>
          <FolderPlus aria-hidden="true" />
          New Folder
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-5">
          <DialogHeader>
            <DialogTitle>New Folder</DialogTitle>
            <DialogDescription>Give the folder a name and pick a colour.</DialogDescription>
          </DialogHeader>
          <FormField id="new-folder-name" label="Folder name" error={errorOf(problem, "name")}>
            <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoComplete="off" placeholder="e.g. 2024 Receipts" />
          </FormField>
          <FolderColorField name="folder-color" value={color} onChange={setColor} />
          <div className="grid gap-1">
            <label className="flex items-center gap-2 text-sm font-medium">
              <input
                type="checkbox"
                className="size-4 accent-accent"
                checked={isPrivate}
                disabled={insidePrivate}
                onChange={(e) => setOnlyMe(e.target.checked)}
                aria-describedby="new-folder-readers"
              />
              Only me and the firm
            </label>
            <p id="new-folder-readers" className="text-sm text-muted-foreground">
              {insidePrivate
                ? "It is inside a private folder: only you and your firm see it and what is in it."
                : isPrivate
                  ? "Only you and your firm see this folder and what is in it. The other people on your account do not."
                  : "Everyone on your account and your firm see this folder and what is in it."}
            </p>
          </div>
          <FormDialogFooter problem={problem} pending={createFolder.isPending} submitLabel="Create Folder" />
        </form>
      </DialogContent>
    </Dialog>
  );
}
