import { Download, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { type DataTableColumn, DataTable } from "@/components/ui/data-table.tsx";
import { TruncatedText } from "@/components/ui/truncated-text.tsx";
import { formatDateTime, formatFileSizeKB } from "@/lib/format.ts";
import { useServerPaging } from "@/lib/use-server-paging.ts";
import type { AdminDocument } from "@server/routers/admin/schemas.ts";
import { useAdminDocuments } from "./use-admin-documents.ts";
import { useDeleteDocument } from "./use-delete-document.ts";

export function DocumentsTab() {
  const paging = useServerPaging();
  const documents = useAdminDocuments(paging);
  const deleteDocument = useDeleteDocument();

  const columns: DataTableColumn<AdminDocument>[] = [
    {
      header: "File",
      card: "title",
      cell: (doc) => <TruncatedText text={doc.original_filename} className="min-w-40 font-medium sm:max-w-64" />,
    },
    {
      header: "Owner",
      cell: (doc) => (
        <div className="sm:min-w-32 sm:max-w-56">
          <TruncatedText text={doc.user_name} />
          <TruncatedText text={doc.user_email} className="text-muted-foreground" />
        </div>
      ),
    },
    { header: "Size", className: "text-right whitespace-nowrap tabular-nums", cell: (doc) => formatFileSizeKB(doc.file_size) },
    {
      header: "Uploaded",
      className: "hidden whitespace-nowrap tabular-nums md:table-cell",
      cell: (doc) => <time dateTime={new Date(doc.upload_date).toISOString()}>{formatDateTime(doc.upload_date)}</time>,
    },
    {
      header: "Actions",
      className: "text-right",
      card: "actions",
      cell: (doc) => (
        <div className="flex justify-end gap-2">
          <Button asChild variant="outline" size="sm">
            <a href={`/api/admin/documents/${doc.id}/download`} download aria-label={`Download ${doc.original_filename}`}>
              <Download aria-hidden="true" />
              Download
            </a>
          </Button>
          <ConfirmAction
            title="Delete document?"
            question="Are you sure you want to delete this document?"
            confirmLabel="Delete document"
            onConfirm={() => deleteDocument.mutate({ id: doc.id })}
            trigger={
              <Button variant="ghost-destructive" size="sm" aria-label={`Delete ${doc.original_filename}`}>
                <Trash2 aria-hidden="true" />
                Delete
              </Button>
            }
          />
        </div>
      ),
    },
  ];

  return (
    <DataTable
      caption="Documents"
      searchLabel="Search documents by filename or owner"
      columns={columns}
      query={documents}
      rowKey={(doc) => doc.id}
      paging={paging}
      emptyText={paging.input.q ? "No documents match your search." : "No documents uploaded yet."}
    />
  );
}
