import { useState } from "react";
import { Download, RotateCcw, Trash2 } from "lucide-react";
import { DocumentViewer } from "@/components/document-viewer/document-viewer.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmAction } from "@/components/ui/confirm-action.tsx";
import { type DataTableColumn, DataTable } from "@/components/ui/data-table.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs.tsx";
import { TruncatedText } from "@/components/ui/truncated-text.tsx";
import { formatDate, formatDateTime, formatFileSizeKB } from "@/lib/format.ts";
import { useServerPaging } from "@/lib/use-server-paging.ts";
import type { AdminDocument, AdminTrashedDocument } from "@server/domains/admin/schemas.ts";
import { useAdminDocuments } from "./use-admin-documents.ts";
import { useAdminTrash } from "./use-admin-trash.ts";
import { useDeleteDocument } from "./use-delete-document.ts";
import { useRestoreDocument } from "./use-restore-document.ts";

/** All clients' documents and, beside them, everything in the clients' trash. */
export function DocumentsTab() {
  return (
    <Tabs defaultValue="documents" activationMode="manual">
      <TabsList aria-label="Documents or trash">
        <TabsTrigger value="documents">All documents</TabsTrigger>
        <TabsTrigger value="trash">Trash</TabsTrigger>
      </TabsList>
      <TabsContent value="documents">
        <LiveDocuments />
      </TabsContent>
      <TabsContent value="trash">
        <TrashedDocuments />
      </TabsContent>
    </Tabs>
  );
}

const owner: DataTableColumn<AdminDocument> = {
  header: "Owner",
  cell: (doc) => (
    <div className="sm:max-w-56 sm:min-w-32">
      <TruncatedText text={doc.user_name} />
      <TruncatedText text={doc.user_email} className="text-muted-foreground" />
    </div>
  ),
};

function LiveDocuments() {
  const paging = useServerPaging();
  const documents = useAdminDocuments(paging);
  const deleteDocument = useDeleteDocument();
  const [viewing, setViewing] = useState<string | null>(null);

  const columns: DataTableColumn<AdminDocument>[] = [
    {
      header: "File",
      card: "title",
      cell: (doc) => (
        // The name opens the viewer; the arrow keys then step through this page of the list.
        <button
          type="button"
          onClick={() => setViewing(doc.id)}
          aria-haspopup="dialog"
          className="block max-w-full cursor-pointer rounded-sm text-left hover:underline max-sm:min-h-11"
        >
          <span title={doc.original_filename} className="block min-w-40 truncate font-medium sm:max-w-64">
            {doc.original_filename}
          </span>
        </button>
      ),
    },
    owner,
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
            question="Are you sure you want to delete this document? It moves to the client's trash for 30 days."
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
    <>
      <DataTable
        caption="Documents"
        searchLabel="Search documents by filename or owner"
        columns={columns}
        query={documents}
        rowKey={(doc) => doc.id}
        paging={paging}
        emptyText={paging.input.q ? "No documents match your search." : "No documents uploaded yet."}
      />
      <DocumentViewer
        documents={documents.data?.items ?? []}
        openId={viewing}
        onOpenIdChange={setViewing}
        previewUrl={(id) => `/api/admin/documents/${id}/preview`}
        downloadUrl={(id) => `/api/admin/documents/${id}/download`}
      />
    </>
  );
}

function TrashedDocuments() {
  const paging = useServerPaging();
  const trash = useAdminTrash(paging);
  const restore = useRestoreDocument();

  const columns: DataTableColumn<AdminTrashedDocument>[] = [
    { header: "File", card: "title", cell: (doc) => <TruncatedText text={doc.original_filename} className="min-w-40 font-medium sm:max-w-64" /> },
    owner,
    { header: "Size", className: "text-right whitespace-nowrap tabular-nums", cell: (doc) => formatFileSizeKB(doc.file_size) },
    {
      header: "Deleted",
      className: "whitespace-nowrap tabular-nums",
      cell: (doc) => <time dateTime={doc.deleted_at.toISOString()}>{formatDateTime(doc.deleted_at)}</time>,
    },
    {
      header: "Deleted forever on",
      className: "hidden whitespace-nowrap tabular-nums md:table-cell",
      cell: (doc) => <time dateTime={doc.purge_at.toISOString()}>{formatDate(doc.purge_at)}</time>,
    },
    {
      header: "Actions",
      className: "text-right",
      card: "actions",
      cell: (doc) => (
        <div className="flex justify-end">
          <Button
            variant="outline"
            size="sm"
            disabled={restore.isPending}
            onClick={() => restore.mutate({ id: doc.id })}
            aria-label={`Restore ${doc.original_filename}`}
          >
            <RotateCcw aria-hidden="true" />
            Restore
          </Button>
        </div>
      ),
    },
  ];

  return (
    <DataTable
      caption="Trash"
      searchLabel="Search the trash by filename or owner"
      columns={columns}
      query={trash}
      rowKey={(doc) => doc.id}
      paging={paging}
      emptyText={paging.input.q ? "Nothing in the trash matches your search." : "The trash is empty."}
    />
  );
}
