import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog.tsx";
import { FormDialogFooter } from "@/components/ui/form-dialog.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { serverProblem } from "@/lib/form-problem.ts";
import { splitExtension } from "@/lib/format.ts";
import { useUpdateDocument } from "./use-update-document.ts";

type RenameDocumentDialogProps = { document: { id: string; original_filename: string }; onClose: () => void };

/**
 * Rename from a document's menu; the name starts selected up to its extension (so typing keeps it),
 * a name typed without one keeps the old extension, and a refusal shows on the field.
 */
export function RenameDocumentDialog({ document, onClose }: RenameDocumentDialogProps) {
  const [name, setName] = useState(document.original_filename);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateDocument();

  const extension = splitExtension(document.original_filename)[1];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = name.trim();
    // A new name without an extension keeps the old one: "2024 return" for "scan.pdf" is "2024 return.pdf".
    const trimmed = typed !== "" && extension && splitExtension(typed)[1] === "" ? `${typed}${extension}` : typed;
    if (update.isPending) return;
    if (trimmed === "") {
      setError("Name is required");
      return;
    }
    if (trimmed === document.original_filename) {
      onClose();
      return;
    }
    setError(null);
    update.mutate(
      { id: document.id, name: trimmed },
      {
        onSuccess: () => {
          toast.success("Document renamed", { id: "rename-document" });
          onClose();
        },
        onError: (err) => setError(serverProblem(err, "Failed to rename document", {}).message),
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        onOpenAutoFocus={(event) => {
          // Focus the name with its base selected, so typing replaces the name and keeps ".pdf".
          event.preventDefault();
          const input = window.document.getElementById("rename-document-name");
          if (!(input instanceof HTMLInputElement)) return;
          input.focus();
          input.setSelectionRange(0, splitExtension(input.value)[0].length);
        }}
      >
        <form onSubmit={submit} className="grid gap-5">
          <DialogHeader>
            <DialogTitle>Rename document</DialogTitle>
            <DialogDescription className="truncate">{document.original_filename}</DialogDescription>
          </DialogHeader>
          <FormField
            id="rename-document-name"
            label="New name"
            hint={extension ? `Leave out the extension and it stays ${extension}.` : undefined}
            error={error ?? undefined}
          >
            <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={255} autoComplete="off" />
          </FormField>
          <FormDialogFooter pending={update.isPending} submitLabel="Rename" />
        </form>
      </DialogContent>
    </Dialog>
  );
}
