import { type ChangeEvent, type FormEvent, lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { ArrowLeft, ArrowRight, Send, Upload } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { FormAlert } from "@/components/ui/form-alert.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";
import { focusMoveButton, MoveButtons, moveButtonId } from "@/components/ui/move-buttons.tsx";
import { LoadError } from "@/components/ui/load-error.tsx";
import { Select } from "@/components/ui/select.tsx";
import { Spinner } from "@/components/ui/spinner.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";
import { errorDetail, httpStatus } from "@/lib/api-error.ts";
import { folderTree } from "@/lib/folder-tree.ts";
import { KIND_LABELS } from "@/lib/signature-fields.ts";
import { trpc } from "@/lib/trpc.ts";
import { uploadWithFields } from "@/lib/upload-document.ts";
import type { FirmAccount } from "@server/domains/accounts/firm-schemas.ts";
import { SIGNATURE_KINDS } from "@server/domains/signatures/schemas.ts";
import type { PlacedField } from "./field-placer.tsx";

// pdf.js comes with the placing step only, never with the client's record.
const FieldPlacer = lazy(() => import("./field-placer.tsx").then((m) => ({ default: m.FieldPlacer })));

type Kind = (typeof SIGNATURE_KINDS)[number];
type Details = {
  documentId: string;
  documentName: string;
  title: string;
  kind: Kind;
  signers: string[];
  order: "parallel" | "sequential";
  dueDate: string;
  message: string;
};

const ROOT = "";

type Person = FirmAccount["contacts"][number];

/** A signer's key: a person's id, or for someone invited and not signed up yet their invitation's. */
const personKey = (p: Person) => p.user_id ?? `invitation:${p.invitation_id}`;

/**
 * "Request signature": first what and who (a PDF of the account or a new upload, title, kind,
 * signers among the account's people with portal access, order, due date, message), then the
 * fields placed on the pages; Send creates the request and the server mails the signers.
 */
export function NewSignatureRequest({ account, onDone }: { account: FirmAccount; onDone: (id: string | null) => void }) {
  // Someone invited who has not signed up yet may sign too: their slot waits until they accept.
  const people = account.contacts.filter((c) => (c.user_id !== null || c.invitation_id !== null) && c.portal_access);
  const [step, setStep] = useState<"details" | "fields">("details");
  const [details, setDetails] = useState<Details>({
    documentId: "",
    documentName: "",
    title: "",
    kind: "engagement_letter",
    signers: people.map(personKey),
    order: "parallel",
    dueDate: "",
    message: "",
  });
  const [fields, setFields] = useState<PlacedField[]>([]);
  const [error, setError] = useState<string | undefined>();
  // PDFs uploaded in this draft, which the client does not see until the request is sent
  // (docs/decisions.md, "A PDF for a signature request waits for the request"): those the request
  // does not send go to the firm's trash when the draft ends, out of the client's sight.
  const [heldUploads, setHeldUploads] = useState<string[]>([]);
  const utils = trpc.useUtils();
  const create = trpc.admin.signatures.create.useMutation();
  const trash = trpc.admin.documents.delete.useMutation();
  const discardHeld = async (keep: string | null) => {
    const unsent = heldUploads.filter((id) => id !== keep);
    if (unsent.length === 0) return;
    await Promise.allSettled(unsent.map((id) => trash.mutateAsync({ id })));
    await utils.admin.clients.documents.invalidate({ id: account.id });
  };
  const signers = details.signers.map((id) => people.find((p) => personKey(p) === id)!).filter(Boolean);

  const send = async () => {
    setError(undefined);
    try {
      const made = await create.mutateAsync({
        account_id: account.id,
        document_id: details.documentId,
        title: details.title.trim(),
        kind: details.kind,
        signers: signers.map((s) => (s.user_id ? { user_id: s.user_id } : { invitation_id: s.invitation_id! })),
        order: details.order,
        due_date: details.dueDate || null,
        message: details.message.trim(),
        fields: fields.map(({ key: _key, ...f }) => f),
      });
      await utils.admin.signatures.list.invalidate();
      await discardHeld(details.documentId);
      toast.success(`“${made.title}” sent for signature`);
      onDone(made.id);
    } catch (err) {
      setError(errorDetail(err) ?? "Sending failed");
    }
  };

  if (step === "details") {
    return (
      <DetailsForm
        account={account}
        people={people}
        details={details}
        onChange={(next) => {
          // Fields placed on another document, or for signers no longer chosen, do not carry over.
          if (next.documentId !== details.documentId || next.signers.join() !== details.signers.join()) setFields([]);
          setDetails(next);
        }}
        onUploaded={(id) => setHeldUploads((ids) => [...ids, id])}
        onCancel={() => void discardHeld(null).finally(() => onDone(null))}
        onNext={() => setStep("fields")}
      />
    );
  }

  return (
    <section aria-labelledby="place-fields-heading" className="grid min-w-0 gap-4">
      <div className="grid gap-1">
        <h3 id="place-fields-heading" className="text-lg font-semibold">
          Place the fields: {details.title}
        </h3>
        <p className="text-sm text-muted-foreground">
          Each signer needs at least one signature field. Date signed and name fill themselves in when the signer signs.
        </p>
      </div>
      <Suspense fallback={<Spinner label="Loading the document…" className="justify-center py-10" />}>
        <FieldPlacer
          documentUrl={`/api/admin/documents/${details.documentId}/preview`}
          documentName={details.documentName}
          signers={signers.map((s) => ({ name: s.name || s.email }))}
          fields={fields}
          onChange={setFields}
        />
      </Suspense>
      <FormAlert message={error} />
      <div className="flex flex-wrap items-center justify-between gap-3 border-t pt-4">
        <Button variant="outline" onClick={() => setStep("details")}>
          <ArrowLeft aria-hidden="true" />
          Back to details
        </Button>
        <Button variant="accent" disabled={create.isPending || fields.length === 0} onClick={() => void send()}>
          <Send aria-hidden="true" />
          {create.isPending ? "Sending…" : "Send for signature"}
        </Button>
      </div>
    </section>
  );
}

type DetailsFormProps = {
  account: FirmAccount;
  people: Person[];
  details: Details;
  onChange: (details: Details) => void;
  onUploaded: (documentId: string) => void;
  onCancel: () => void;
  onNext: () => void;
};

function DetailsForm({ account, people, details, onChange, onUploaded, onCancel, onNext }: DetailsFormProps) {
  const [folderId, setFolderId] = useState(ROOT);
  const [uploading, setUploading] = useState(false);
  const [problems, setProblems] = useState<{ document?: string; title?: string; signers?: string; upload?: string }>({});
  const folders = trpc.admin.clients.folders.useQuery({ id: account.id }, { retry: false });
  const documents = trpc.admin.clients.documents.useQuery({ id: account.id, folder_id: folderId || null }, { retry: false });
  const utils = trpc.useUtils();
  const uploadId = useId();
  const orderHeadingId = useId();
  const pdfs = (documents.data ?? []).filter((d) => d.content_type === "application/pdf");
  const set = (change: Partial<Details>) => onChange({ ...details, ...change });

  const pick = (id: string, name: string) => {
    const title = details.title && details.title !== details.documentName.replace(/\.pdf$/i, "") ? details.title : name.replace(/\.pdf$/i, "");
    set({ documentId: id, documentName: name, title });
  };

  const onUpload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setProblems((p) => ({ ...p, upload: undefined }));
    if (file.type !== "application/pdf" && !file.name.toLowerCase().endsWith(".pdf")) {
      setProblems((p) => ({ ...p, upload: "Only a PDF can be sent for signature" }));
      return;
    }
    setUploading(true);
    try {
      const stored = await uploadWithFields(`/api/admin/users/${account.id}/documents`, file, {
        ...(folderId ? { folder_id: folderId } : {}),
        for_signature: "true",
      });
      onUploaded(stored.id);
      await utils.admin.clients.documents.invalidate({ id: account.id });
      pick(stored.id, stored.original_filename);
      toast.success(`${stored.original_filename} uploaded. The client sees it once you send the request.`);
    } catch (err) {
      setProblems((p) => ({ ...p, upload: err instanceof Error ? err.message : "File upload failed" }));
    } finally {
      setUploading(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      document: details.documentId ? undefined : "Choose the PDF to sign, or upload one",
      title: details.title.trim() ? undefined : "Title is required",
      signers: details.signers.length > 0 ? undefined : "Choose at least one signer",
    };
    setProblems(found);
    if (found.document || found.title || found.signers) return;
    onNext();
  };

  // A signer chosen again goes last; the signing order below is the order of details.signers.
  const toggleSigner = (userId: string, on: boolean) => {
    const others = details.signers.filter((id) => id !== userId);
    set({ signers: on ? [...others, userId] : others });
  };
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    const id = focusNext.current;
    if (!id) return;
    focusNext.current = null;
    focusMoveButton(id);
  });
  const moveSigner = (userId: string, by: -1 | 1) => {
    const order = [...details.signers];
    const at = order.indexOf(userId);
    order.splice(at, 1);
    order.splice(at + by, 0, userId);
    set({ signers: order });
    focusNext.current = moveButtonId(`signer-${userId}`, by);
  };
  const chosenPeople = details.signers.map((id) => people.find((p) => personKey(p) === id)).filter((p) => p !== undefined);

  if (people.length === 0) {
    return (
      <div className="grid justify-items-start gap-3 rounded-xl border bg-card p-4 sm:p-6">
        <p className="text-sm">Nobody in this account has portal access or an invitation yet: invite a person first, then ask them to sign.</p>
        <Button variant="outline" onClick={onCancel}>
          Back
        </Button>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="new-signature-heading" className="grid min-w-0 gap-5 rounded-xl border bg-card p-4 sm:p-6">
      <h3 id="new-signature-heading" className="text-lg font-semibold">
        Request signature
      </h3>

      <fieldset className="grid min-w-0 gap-3">
        <legend className="mb-2 font-medium">Document</legend>
        {httpStatus(documents.error) === 403 || httpStatus(folders.error) === 403 ? (
          <p className="text-sm text-muted-foreground">You need the documents right to choose one of this account&apos;s documents.</p>
        ) : folders.isError ? (
          <LoadError message="Failed to load the folders" onRetry={() => void folders.refetch()} isRetrying={folders.isFetching} />
        ) : (
          <div className="grid items-start gap-4 sm:grid-cols-2">
            <FormField label="Folder">
              <Select value={folderId} onChange={(e) => setFolderId(e.target.value)}>
                <option value={ROOT}>Top level</option>
                {folderTree(folders.data ?? []).map(({ folder, depth }) => (
                  <option key={folder.id} value={folder.id}>
                    {`${"\u00a0\u00a0".repeat(depth)}${folder.name}`}
                  </option>
                ))}
              </Select>
            </FormField>
            <FormField
              label="PDF to sign"
              error={problems.document}
              hint={documents.isSuccess && pdfs.length === 0 ? "No PDF in this folder: choose another folder, or upload one." : undefined}
            >
              <Select
                value={details.documentId}
                disabled={documents.isPending}
                onChange={(e) => {
                  const doc = pdfs.find((d) => d.id === e.target.value);
                  if (doc) pick(doc.id, doc.original_filename);
                }}
              >
                <option value="" disabled>
                  {documents.isPending ? "Loading…" : "Choose a PDF"}
                </option>
                {details.documentId && !pdfs.some((d) => d.id === details.documentId) && (
                  <option value={details.documentId}>{details.documentName}</option>
                )}
                {pdfs.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.original_filename}
                  </option>
                ))}
              </Select>
            </FormField>
          </div>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <input id={uploadId} type="file" accept="application/pdf,.pdf" className="sr-only" onChange={(e) => void onUpload(e)} />
          <Button asChild variant="outline" size="sm">
            <label htmlFor={uploadId} className={uploading ? "pointer-events-none opacity-50" : undefined}>
              <Upload aria-hidden="true" />
              {uploading ? "Uploading…" : "Upload a PDF"}
            </label>
          </Button>
          <span className="text-xs text-muted-foreground">
            It goes into the folder chosen above. The client sees it only once you send the request; cancel, and it goes to your trash.
          </span>
        </div>
        <FormAlert message={problems.upload} />
      </fieldset>

      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField label="Title" required error={problems.title}>
          <Input value={details.title} maxLength={200} onChange={(e) => set({ title: e.target.value })} />
        </FormField>
        <FormField
          label="Kind"
          hint={
            details.kind === "form_8879"
              ? "Signing a Form 8879 remotely needs an identity check by a KBA provider; without one, each signer signs at your office and you record their photo ID on the request."
              : undefined
          }
        >
          <Select value={details.kind} onChange={(e) => set({ kind: e.target.value as Kind })}>
            {SIGNATURE_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </Select>
        </FormField>
      </div>

      <fieldset className="grid gap-2" aria-describedby={problems.signers ? "signers-error" : undefined}>
        <legend className="mb-2 font-medium">Signers</legend>
        {people.map((p) => (
          <label key={personKey(p)} className="flex min-w-0 items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4 shrink-0"
              checked={details.signers.includes(personKey(p))}
              onChange={(e) => toggleSigner(personKey(p), e.target.checked)}
            />
            <span className="min-w-0 break-words [overflow-wrap:anywhere]">
              {p.name || p.email} <span className="text-muted-foreground">({p.email})</span>
              {p.user_id === null && <span className="text-muted-foreground"> · invited, not signed up yet</span>}
            </span>
          </label>
        ))}
        {people.some((p) => p.user_id === null) && (
          <p className="text-sm text-muted-foreground">
            Someone invited signs once they accept their invitation: the request waits for them and is on their dashboard when they do. An invitation
            email sent from now on (a resend) lists it.
          </p>
        )}
        {problems.signers && (
          <p id="signers-error" className="text-sm text-destructive">
            {problems.signers}
          </p>
        )}
      </fieldset>

      <fieldset className="grid gap-2">
        <legend className="mb-2 font-medium">Order</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="order" className="size-4" checked={details.order === "parallel"} onChange={() => set({ order: "parallel" })} />
          All at once
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="radio"
            name="order"
            className="size-4"
            checked={details.order === "sequential"}
            onChange={() => set({ order: "sequential" })}
          />
          In order
        </label>
        {details.order === "sequential" && chosenPeople.length > 1 && (
          <div className="mt-2 grid gap-2 sm:max-w-md">
            <p id={orderHeadingId} className="text-sm font-medium">
              Signing order
            </p>
            <p className="text-sm text-muted-foreground">Each signer is asked once the one before has signed.</p>
            <ol aria-labelledby={orderHeadingId} className="grid gap-1">
              {chosenPeople.map((p, index) => (
                <li key={personKey(p)} className="flex min-w-0 items-center gap-2 rounded-md border px-3 py-1 text-sm">
                  <span className="w-5 shrink-0 text-muted-foreground">{index + 1}.</span>
                  <span className="min-w-0 flex-1 break-words [overflow-wrap:anywhere]">{p.name || p.email}</span>
                  <MoveButtons
                    id={`signer-${personKey(p)}`}
                    what={p.name || p.email}
                    first={index === 0}
                    last={index === chosenPeople.length - 1}
                    onMove={(by) => moveSigner(personKey(p), by)}
                  />
                </li>
              ))}
            </ol>
          </div>
        )}
      </fieldset>

      <div className="grid items-start gap-4 sm:grid-cols-2">
        <FormField label="Due date (optional)">
          <Input type="date" value={details.dueDate} onChange={(e) => set({ dueDate: e.target.value })} />
        </FormField>
        <FormField label="Message (optional)" hint="Shown to the signers with the request.">
          <Textarea rows={3} maxLength={5000} value={details.message} onChange={(e) => set({ message: e.target.value })} />
        </FormField>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-3 border-t pt-4">
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="accent">
          Place fields
          <ArrowRight aria-hidden="true" />
        </Button>
      </div>
    </form>
  );
}
