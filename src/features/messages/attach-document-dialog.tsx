import { useState } from "react";
import { FileText } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { useDebouncedValue } from "@/lib/use-debounced-value.ts";
import type { UploadedDocument } from "@/lib/upload-document.ts";
import { useDocumentsToAttach } from "./use-messages.ts";

/** Picks one of the client's stored documents to attach, newest first, found by name. */
export function AttachDocumentDialog({ onAttach }: { onAttach: (document: UploadedDocument) => void }) {
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState("");
  const search = useDebouncedValue(q.trim(), 250);
  const documents = useDocumentsToAttach(search);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button type="button" variant="outline">
          <FileText aria-hidden="true" />
          Attach a document
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Attach a document</DialogTitle>
          <DialogDescription>One of the documents already in your portal.</DialogDescription>
        </DialogHeader>
        <Input type="search" aria-label="Find a document by name" placeholder="Find by name…" value={q} onChange={(e) => setQ(e.target.value)} />
        {documents.isPending ? (
          <Spinner label="Loading documents…" className="justify-center py-4" />
        ) : (documents.data ?? []).length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">No documents found.</p>
        ) : (
          <ul className="grid max-h-72 gap-1 overflow-y-auto">
            {documents.data!.map((document) => (
              <li key={document.id}>
                <Button
                  type="button"
                  variant="ghost"
                  className="w-full justify-start"
                  onClick={() => {
                    onAttach({ id: document.id, original_filename: document.original_filename });
                    setOpen(false);
                  }}
                >
                  <FileText aria-hidden="true" />
                  <span className="truncate">{document.original_filename}</span>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
