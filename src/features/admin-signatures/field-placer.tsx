/*
 * The firm places signature fields on the pages of the PDF: drag a kind of field from the palette
 * onto a page (or press it to add one to the page chosen beside it), then drag it where it goes and
 * by its corner to its size; with the keyboard, the arrow keys move the selected field (Shift: in
 * larger steps) and Delete removes it. Each field belongs to one signer, shown in that signer's
 * colour. Positions and sizes are fractions of the page, as the server stores them.
 */
import { type Dispatch, type KeyboardEvent, type PointerEvent as ReactPointerEvent, type SetStateAction, useId, useRef, useState } from "react";
import { Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Select } from "@/components/ui/select.tsx";
import { PdfPageStack } from "@/components/document-viewer/pdf-page-stack.tsx";
import { FIELD_LABELS, fieldBoxStyle, signerColor } from "@/lib/signature-fields.ts";
import { FIELD_TYPES, type FieldType } from "@server/domains/signatures/schemas.ts";

export type PlacedField = {
  key: string;
  signer: number;
  type: FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
};

/** A new field's size, as fractions of a US Letter page. */
const DEFAULT_SIZE: Record<FieldType, { width: number; height: number }> = {
  signature: { width: 0.3, height: 0.06 },
  initials: { width: 0.1, height: 0.05 },
  date: { width: 0.18, height: 0.04 },
  name: { width: 0.3, height: 0.04 },
  text: { width: 0.3, height: 0.04 },
  checkbox: { width: 0.035, height: 0.027 },
};
const MIN_SIZE = 0.02;

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);
const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** Keeps a field within its page. */
function fit(field: PlacedField): PlacedField {
  const width = round(clamp(field.width, MIN_SIZE, 1));
  const height = round(clamp(field.height, MIN_SIZE, 1));
  return { ...field, width, height, x: round(clamp(field.x, 0, 1 - width)), y: round(clamp(field.y, 0, 1 - height)) };
}

type Signer = { name: string };

type FieldPlacerProps = {
  documentUrl: string;
  documentName: string;
  signers: Signer[];
  fields: PlacedField[];
  onChange: Dispatch<SetStateAction<PlacedField[]>>;
};

export function FieldPlacer({ documentUrl, documentName, signers, fields, onChange }: FieldPlacerProps) {
  const [signer, setSigner] = useState(0);
  const [pages, setPages] = useState(0);
  const [addPage, setAddPage] = useState(1);
  const [selected, setSelected] = useState<string | null>(null);
  const [ghost, setGhost] = useState<{ type: FieldType; x: number; y: number } | null>(null);
  const suppressClick = useRef(false);
  const nextKey = useRef(0);
  const headingId = useId();

  const add = (type: FieldType, page: number, at?: { x: number; y: number }) => {
    const size = DEFAULT_SIZE[type];
    const key = `f${nextKey.current++}`;
    onChange((current) => {
      const onPage = current.filter((f) => f.page === page).length;
      const field = fit({
        key,
        signer,
        type,
        page,
        required: type !== "checkbox",
        ...size,
        // Pressed, not dropped: down the page a little for each field already on it, so none hides another.
        x: at ? at.x - size.width / 2 : 0.1,
        y: at ? at.y - size.height / 2 : 0.1 + ((onPage * 0.07) % 0.8),
      });
      return [...current, field];
    });
    setSelected(key);
  };

  const update = (key: string, change: Partial<PlacedField>) =>
    onChange((current) => current.map((f) => (f.key === key ? fit({ ...f, ...change }) : f)));
  const remove = (key: string) => {
    onChange((current) => current.filter((f) => f.key !== key));
    setSelected(null);
  };

  const startPaletteDrag = (type: FieldType, event: ReactPointerEvent) => {
    if (event.button !== 0) return;
    const start = { x: event.clientX, y: event.clientY };
    let moved = false;
    const move = (e: PointerEvent) => {
      if (!moved && Math.hypot(e.clientX - start.x, e.clientY - start.y) < 6) return;
      moved = true;
      setGhost({ type, x: e.clientX, y: e.clientY });
    };
    const end = (e: PointerEvent) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", end);
      window.removeEventListener("pointercancel", end);
      setGhost(null);
      if (!moved || e.type === "pointercancel") return;
      suppressClick.current = true;
      setTimeout(() => (suppressClick.current = false), 0);
      const page = document.elementsFromPoint(e.clientX, e.clientY).find((el): el is HTMLElement => el instanceof HTMLElement && !!el.dataset.page);
      if (!page) return;
      const rect = page.getBoundingClientRect();
      add(type, Number(page.dataset.page), { x: (e.clientX - rect.left) / rect.width, y: (e.clientY - rect.top) / rect.height });
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
  };

  const chosen = fields.find((f) => f.key === selected) ?? null;
  const missing = signers.map((s, i) => ({ ...s, i })).filter((s) => !fields.some((f) => f.signer === s.i && f.type === "signature"));

  return (
    <div className="grid min-w-0 gap-4 lg:grid-cols-[minmax(0,1fr)_18rem] lg:items-start">
      <div className="order-2 min-w-0 lg:order-1">
        <PdfPageStack
          url={documentUrl}
          name={documentName}
          onPages={setPages}
          renderLayer={(page) =>
            fields
              .filter((f) => f.page === page)
              .map((f) => (
                <PlacedBox
                  key={f.key}
                  field={f}
                  signerName={signers[f.signer]?.name ?? `Signer ${f.signer + 1}`}
                  selected={f.key === selected}
                  onSelect={() => setSelected(f.key)}
                  onChange={(change) => update(f.key, change)}
                  onRemove={() => remove(f.key)}
                />
              ))
          }
        />
      </div>

      <aside aria-labelledby={headingId} className="order-1 grid min-w-0 gap-4 rounded-xl border bg-card p-4 lg:sticky lg:top-4 lg:order-2">
        <h3 id={headingId} className="font-medium">
          Fields
        </h3>
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">New fields are for</legend>
          {signers.map((s, i) => (
            <label key={i} className="flex items-center gap-2 text-sm">
              <input type="radio" name="field-signer" checked={signer === i} onChange={() => setSigner(i)} className="size-4 accent-current" />
              <span aria-hidden="true" className="size-3 shrink-0 rounded-full" style={{ backgroundColor: signerColor(i) }} />
              <span className="min-w-0 break-words">{s.name}</span>
            </label>
          ))}
        </fieldset>
        <div className="grid gap-2">
          <p className="text-sm text-muted-foreground">Drag a field onto a page, or press it to add it to:</p>
          <Select aria-label="Page for new fields" value={addPage} onChange={(e) => setAddPage(Number(e.target.value))} disabled={pages === 0}>
            {Array.from({ length: Math.max(pages, 1) }, (_, i) => (
              <option key={i} value={i + 1}>
                Page {i + 1}
              </option>
            ))}
          </Select>
          <div role="group" aria-label="Add a field" className="grid grid-cols-2 gap-2">
            {FIELD_TYPES.map((type) => (
              <Button
                key={type}
                variant="outline"
                size="sm"
                className="touch-none justify-start"
                style={{ borderLeft: `4px solid ${signerColor(signer)}` }}
                disabled={pages === 0}
                onPointerDown={(e) => startPaletteDrag(type, e)}
                onClick={() => {
                  if (!suppressClick.current) add(type, addPage);
                }}
              >
                {FIELD_LABELS[type]}
              </Button>
            ))}
          </div>
        </div>

        {chosen ? (
          <div className="grid gap-3 border-t pt-4" aria-label="Selected field" role="group">
            <p className="text-sm font-medium">
              {FIELD_LABELS[chosen.type]} on page {chosen.page}
            </p>
            <FormField label="Signer">
              <Select value={chosen.signer} onChange={(e) => update(chosen.key, { signer: Number(e.target.value) })}>
                {signers.map((s, i) => (
                  <option key={i} value={i}>
                    {s.name}
                  </option>
                ))}
              </Select>
            </FormField>
            <FormField label="Kind of field">
              <Select value={chosen.type} onChange={(e) => update(chosen.key, { type: e.target.value as FieldType })}>
                {FIELD_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {FIELD_LABELS[type]}
                  </option>
                ))}
              </Select>
            </FormField>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4"
                checked={chosen.required}
                disabled={chosen.type === "signature" || chosen.type === "date" || chosen.type === "name"}
                onChange={(e) => update(chosen.key, { required: e.target.checked })}
              />
              Required
            </label>
            <Button variant="ghost-destructive" size="sm" className="w-fit" onClick={() => remove(chosen.key)}>
              <Trash2 aria-hidden="true" />
              Remove field
            </Button>
          </div>
        ) : (
          <p className="border-t pt-4 text-sm text-muted-foreground">
            Select a field to change its signer or kind. Arrow keys move it, Delete removes it.
          </p>
        )}
        <p aria-live="polite" className="text-sm text-muted-foreground">
          {fields.length === 1 ? "1 field placed." : `${fields.length} fields placed.`}
          {missing.length > 0 && ` Still needs a signature field: ${missing.map((s) => s.name).join(", ")}.`}
        </p>
      </aside>

      {ghost && (
        <div
          aria-hidden="true"
          className="pointer-events-none fixed z-50 -translate-x-1/2 -translate-y-1/2 rounded border-2 bg-white/80 px-2 py-1 text-xs font-medium shadow"
          style={{ left: ghost.x, top: ghost.y, borderColor: signerColor(signer), color: signerColor(signer) }}
        >
          {FIELD_LABELS[ghost.type]}
        </div>
      )}
    </div>
  );
}

type PlacedBoxProps = {
  field: PlacedField;
  signerName: string;
  selected: boolean;
  onSelect: () => void;
  onChange: (change: Partial<PlacedField>) => void;
  onRemove: () => void;
};

/** A placed field on its page: dragged to move, by its corner to resize. */
function PlacedBox({ field, signerName, selected, onSelect, onChange, onRemove }: PlacedBoxProps) {
  const color = signerColor(field.signer);

  const drag = (event: ReactPointerEvent<HTMLElement>, mode: "move" | "resize") => {
    if (event.button !== 0) return;
    event.stopPropagation();
    onSelect();
    const layer = (event.currentTarget.closest("[data-page]") as HTMLElement | null)?.getBoundingClientRect();
    if (!layer) return;
    const start = { x: event.clientX, y: event.clientY, fx: field.x, fy: field.y, fw: field.width, fh: field.height };
    const target = event.currentTarget;
    target.setPointerCapture(event.pointerId);
    const move = (e: PointerEvent) => {
      const dx = (e.clientX - start.x) / layer.width;
      const dy = (e.clientY - start.y) / layer.height;
      onChange(mode === "move" ? { x: start.fx + dx, y: start.fy + dy } : { width: start.fw + dx, height: start.fh + dy });
    };
    const end = () => {
      target.removeEventListener("pointermove", move);
      target.removeEventListener("pointerup", end);
      target.removeEventListener("pointercancel", end);
    };
    target.addEventListener("pointermove", move);
    target.addEventListener("pointerup", end);
    target.addEventListener("pointercancel", end);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.shiftKey ? 0.05 : 0.01;
    const moves: Record<string, Partial<PlacedField>> = {
      ArrowLeft: { x: field.x - step },
      ArrowRight: { x: field.x + step },
      ArrowUp: { y: field.y - step },
      ArrowDown: { y: field.y + step },
    };
    if (moves[event.key]) {
      event.preventDefault();
      onChange(moves[event.key]!);
    } else if (event.key === "Delete" || event.key === "Backspace") {
      event.preventDefault();
      onRemove();
    }
  };

  return (
    <div
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      aria-label={`${FIELD_LABELS[field.type]} · ${signerName}, page ${field.page}${field.required ? ", required" : ""}`}
      data-field-type={field.type}
      data-signer={field.signer}
      onPointerDown={(e) => drag(e, "move")}
      onFocus={onSelect}
      onKeyDown={onKeyDown}
      className={`absolute flex cursor-move touch-none items-center overflow-hidden rounded-sm border-2 text-[0.625rem] leading-none font-semibold outline-none select-none focus-visible:ring-2 focus-visible:ring-ring sm:text-xs ${selected ? "ring-2 ring-ring ring-offset-1" : ""}`}
      style={fieldBoxStyle(field, color, "1f")}
    >
      <span className="truncate px-1">
        {field.type === "checkbox" ? "" : `${FIELD_LABELS[field.type]} · ${signerName}${field.required ? " *" : ""}`}
      </span>
      {selected && (
        <span
          aria-hidden="true"
          onPointerDown={(e) => drag(e, "resize")}
          className="absolute right-0 bottom-0 size-3 cursor-se-resize"
          style={{ backgroundColor: color }}
        />
      )}
    </div>
  );
}
