/*
 * The document to sign, every page, with the signer's own fields highlighted where the firm put
 * them: tap a text field (or initials) to fill it in, tap a checkbox to tick it, tap a signature
 * field to go to the signature; the date and the name fill themselves in. Loaded on demand (pdf.js).
 */
import { Check } from "lucide-react";
import { PdfPageStack } from "@/components/document-viewer/pdf-page-stack.tsx";
import { FIELD_LABELS, fieldBoxStyle, signerColor } from "@/lib/signature-fields.ts";
import type { ClientSignatureRequest } from "@server/domains/signatures/schemas.ts";
import type { SignatureValue } from "./signature-pad.tsx";

type Field = ClientSignatureRequest["fields"][number];

export type SigningDocumentProps = {
  url: string;
  name: string;
  fields: Field[];
  /** The signer's colour, as the firm saw their fields. */
  signerIndex: number;
  /** What each field shows now: filled in, automatic, or empty. */
  shown: (field: Field) => string;
  signature: SignatureValue;
  /** Fields are tappable only while the signer may sign. */
  editable: boolean;
  onEdit: (field: Field) => void;
  onToggle: (field: Field) => void;
  onSignatureField: () => void;
};

export function SigningDocument(props: SigningDocumentProps) {
  const { url, name, fields } = props;
  return (
    <PdfPageStack
      url={url}
      name={name}
      renderLayer={(page) => fields.filter((f) => f.page === page).map((f) => <FieldBox key={f.id} field={f} {...props} />)}
    />
  );
}

function FieldBox({ field, signerIndex, shown, signature, editable, onEdit, onToggle, onSignatureField }: SigningDocumentProps & { field: Field }) {
  const color = signerColor(signerIndex);
  const value = shown(field);
  const automatic = field.type === "date" || field.type === "name";
  const style = fieldBoxStyle(field, color, "1a");
  const base =
    "absolute flex items-center overflow-hidden rounded-sm border-2 text-left text-[0.625rem] leading-none font-semibold sm:text-xs focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none";
  const where = `on page ${field.page}`;

  if (field.type === "checkbox") {
    return (
      <button
        type="button"
        role="checkbox"
        aria-checked={value === "true"}
        aria-label={`Checkbox ${where}${field.required ? ", required" : ""}`}
        disabled={!editable}
        onClick={() => onToggle(field)}
        className={`${base} justify-center`}
        style={style}
      >
        {value === "true" && <Check aria-hidden="true" className="size-full" strokeWidth={3} />}
      </button>
    );
  }
  if (automatic || !editable) {
    return (
      <div role="note" aria-label={`${FIELD_LABELS[field.type]} ${where}: ${value || "empty"}`} className={base} style={style}>
        <span className="truncate px-1 text-foreground">{value || FIELD_LABELS[field.type]}</span>
      </div>
    );
  }
  if (field.type === "signature") {
    return (
      <button
        type="button"
        aria-label={`Signature ${where}: ${signature?.type === "typed" ? signature.text : signature ? "signed" : "sign here"}`}
        onClick={onSignatureField}
        className={base}
        style={style}
      >
        {signature?.type === "drawn" ? (
          <img src={signature.image} alt="" className="h-full max-w-full object-contain object-left" />
        ) : signature?.type === "typed" ? (
          <span className="truncate px-1 font-serif text-sm text-[#0d1a73] italic sm:text-lg">{signature.text}</span>
        ) : (
          <span className="truncate px-1">Sign here</span>
        )}
      </button>
    );
  }
  return (
    <button
      type="button"
      aria-label={`${FIELD_LABELS[field.type]} ${where}${field.required ? ", required" : ""}: ${value ? value : "empty, tap to fill in"}`}
      onClick={() => onEdit(field)}
      className={base}
      style={style}
    >
      <span className={`truncate px-1 ${value ? "text-foreground" : ""}`}>{value || `${FIELD_LABELS[field.type]}${field.required ? " *" : ""}`}</span>
    </button>
  );
}
