import { Download, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { type DataTableColumn, DataTable } from "@/components/ui/data-table.tsx";
import { formatDateTime, formatFileSizeKB } from "@/lib/format.ts";
import { useServerPaging } from "@/lib/use-server-paging.ts";
import type { AdminDocument } from "../../../server/routers/admin/schemas.ts";
import { useAdminDocuments } from "./use-admin-documents.ts";
import { useDeleteDocument } from "./use-delete-document.ts";

export function DocumentsTab() {
  const paging = useServerPaging();
  const documents = useAdminDocuments(paging);
  const deleteDocument = useDeleteDocument();

  const columns: DataTableColumn<AdminDocument>[] = [
    {
      header: "File",
      cell: (doc) => <p className="max-w-72 min-w-40 font-medium break-words">{doc.original_filename}</p>,
    },
    {
      header: "Owner",
      cell: (doc) => (
        <div className="min-w-40">
          <p>{doc.user_name}</p>
          <p className="text-muted-foreground">{doc.user_email}</p>
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
              <Button
                variant="ghost"
                size="sm"
                className="text-destructive hover:bg-destructive/10"
                aria-label={`Delete ${doc.original_filename}`}
              >
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
