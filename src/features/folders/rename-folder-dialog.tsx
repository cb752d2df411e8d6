import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import { FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { errorOf, focusControl, type FormProblem, serverProblem } from "@/lib/form-problem.ts";
import { DEFAULT_FOLDER_COLOR, type Folder } from "@server/domains/folders/schemas.ts";
import { type FolderColor, FolderColorField, isFolderColor } from "./folder-color-field.tsx";
import { useUpdateFolder } from "./use-update-folder.ts";

/** Rename and recolour a folder from its menu; a taken name shows on the name field. */
export function RenameFolderDialog({ folder, onClose }: { folder: Folder; onClose: () => void }) {
  const [name, setName] = useState(folder.name);
  const [color, setColor] = useState<FolderColor>(isFolderColor(folder.color) ? folder.color : DEFAULT_FOLDER_COLOR);
  const [problem, setProblem] = useState<FormProblem<"name"> | null>(null);
  const update = useUpdateFolder();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (update.isPending) return;
    if (trimmed === "") {
      setProblem({ message: "Folder name is required", field: "name" });
      focusControl("rename-folder-name");
      return;
    }
    const changes = { ...(trimmed !== folder.name ? { name: trimmed } : {}), ...(color !== folder.color ? { color } : {}) };
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    setProblem(null);
    update.mutate(
      { id: folder.id, ...changes },
      {
        onSuccess: () => {
          toast.success("Folder updated", { id: "rename-folder" });
          onClose();
        },
        onError: (err) => {
          const found = serverProblem(err, "Failed to update folder", { name: /name/i });
          setProblem(found);
          if (found.field) focusControl("rename-folder-name");
        },
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-5">
          <DialogHeader>
            <DialogTitle>Rename folder</DialogTitle>
            <DialogDescription>Change the folder&apos;s name or colour.</DialogDescription>
          </DialogHeader>
          <FormField id="rename-folder-name" label="Folder name" error={errorOf(problem, "name")}>
            <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoComplete="off" />
          </FormField>
          <FolderColorField name="rename-folder-color" value={color} onChange={setColor} />
          <FormDialogFooter problem={problem} pending={update.isPending} submitLabel="Save" />
        </form>
      </DialogContent>
    </Dialog>
  );
}
