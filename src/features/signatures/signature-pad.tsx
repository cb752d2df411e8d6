import { type PointerEvent as ReactPointerEvent, useEffect, useId, useRef, useState } from "react";
import { Eraser } from "lucide-react";
import { Button } from "@/components/ui/button.tsx";
import { FormField } from "@/components/ui/form-field.tsx";
import { Input } from "@/components/ui/input.tsx";

export type SignatureValue = { type: "typed"; text: string } | { type: "drawn"; image: string } | null;

type SignaturePadProps = {
  /** The signer's name, offered as the typed signature's placeholder. */
  name: string;
  onChange: (value: SignatureValue) => void;
  error?: string;
};

/** The signature: the name typed (shown in a script face) or drawn with a finger or the mouse on a canvas, sent as a PNG. */
export function SignaturePad({ name, onChange, error }: SignaturePadProps) {
  const [mode, setMode] = useState<"typed" | "drawn">("typed");
  const [text, setText] = useState("");
  const groupName = useId();

  const choose = (next: "typed" | "drawn") => {
    setMode(next);
    onChange(next === "typed" && text.trim() ? { type: "typed", text: text.trim() } : null);
  };

  return (
    <div className="grid min-w-0 gap-3">
      <fieldset className="flex flex-wrap gap-x-5 gap-y-2">
        <legend className="mb-2 text-sm font-medium">How do you sign?</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name={groupName} className="size-4" checked={mode === "typed"} onChange={() => choose("typed")} />
          Type my name
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name={groupName} className="size-4" checked={mode === "drawn"} onChange={() => choose("drawn")} />
          Draw my signature
        </label>
      </fieldset>
      {mode === "typed" ? (
        <div className="grid gap-2">
          <FormField label="Type your full name" error={error}>
            <Input
              value={text}
              maxLength={200}
              autoComplete="name"
              placeholder={name}
              onChange={(e) => {
                setText(e.target.value);
                onChange(e.target.value.trim() ? { type: "typed", text: e.target.value.trim() } : null);
              }}
            />
          </FormField>
          <p aria-hidden="true" className="min-h-12 truncate border-b-2 border-dashed px-1 font-serif text-3xl text-[#0d1a73] italic">
            {text}
          </p>
        </div>
      ) : (
        <DrawingPad onChange={(image) => onChange(image ? { type: "drawn", image } : null)} error={error} />
      )}
    </div>
  );
}

/** The canvas to draw on; the drawing is sent cropped to what was drawn, with a little margin. */
function DrawingPad({ onChange, error }: { onChange: (image: string | null) => void; error?: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const ink = useRef<{ minX: number; minY: number; maxX: number; maxY: number } | null>(null);
  const last = useRef<{ x: number; y: number } | null>(null);
  const hintId = useId();
  const errorId = useId();

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const scale = Math.min(window.devicePixelRatio || 1, 2);
    canvas.width = Math.round(canvas.clientWidth * scale);
    canvas.height = Math.round(canvas.clientHeight * scale);
    const context = canvas.getContext("2d");
    if (!context) return;
    context.scale(scale, scale);
    context.lineWidth = 2.5;
    context.lineCap = "round";
    context.lineJoin = "round";
    context.strokeStyle = "#0d1a73";
  }, []);

  const point = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };

  const mark = (p: { x: number; y: number }) => {
    const box = ink.current;
    ink.current = box
      ? { minX: Math.min(box.minX, p.x), minY: Math.min(box.minY, p.y), maxX: Math.max(box.maxX, p.x), maxY: Math.max(box.maxY, p.y) }
      : { minX: p.x, minY: p.y, maxX: p.x, maxY: p.y };
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    const p = point(event);
    last.current = p;
    mark(p);
    const context = event.currentTarget.getContext("2d");
    context?.beginPath();
    context?.arc(p.x, p.y, 1.2, 0, Math.PI * 2);
    if (context) context.fillStyle = "#0d1a73";
    context?.fill();
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    if (!last.current) return;
    const context = event.currentTarget.getContext("2d");
    const p = point(event);
    context?.beginPath();
    context?.moveTo(last.current.x, last.current.y);
    context?.lineTo(p.x, p.y);
    context?.stroke();
    last.current = p;
    mark(p);
  };

  const onPointerUp = () => {
    if (!last.current) return;
    last.current = null;
    onChange(exportInk());
  };

  const exportInk = (): string | null => {
    const canvas = canvasRef.current;
    const box = ink.current;
    if (!canvas || !box) return null;
    const scale = canvas.width / canvas.clientWidth;
    const margin = 6;
    const x = Math.max(0, Math.floor((box.minX - margin) * scale));
    const y = Math.max(0, Math.floor((box.minY - margin) * scale));
    const width = Math.min(canvas.width - x, Math.ceil((box.maxX - box.minX + margin * 2) * scale));
    const height = Math.min(canvas.height - y, Math.ceil((box.maxY - box.minY + margin * 2) * scale));
    const cropped = document.createElement("canvas");
    cropped.width = Math.max(1, width);
    cropped.height = Math.max(1, height);
    cropped.getContext("2d")?.drawImage(canvas, x, y, width, height, 0, 0, width, height);
    return cropped.toDataURL("image/png");
  };

  const clear = () => {
    const canvas = canvasRef.current;
    canvas?.getContext("2d")?.clearRect(0, 0, canvas.width, canvas.height);
    ink.current = null;
    onChange(null);
  };

  return (
    <div className="grid gap-2">
      <p id={hintId} className="text-sm text-muted-foreground">
        Draw your signature in the box with your finger or the mouse.
      </p>
      <canvas
        ref={canvasRef}
        role="img"
        aria-label="Signature drawing area"
        aria-describedby={[hintId, error ? errorId : ""].join(" ").trim()}
        data-testid="signature-canvas"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        className={`h-40 w-full touch-none rounded-md border-2 border-dashed bg-white ${error ? "border-destructive" : "border-input"}`}
      />
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
      <Button variant="outline" size="sm" className="w-fit" onClick={clear}>
        <Eraser aria-hidden="true" />
        Clear
      </Button>
    </div>
  );
}
